// upstream: pkg/scheduler/framework/plugins/volumezone/volume_zone.go

/** A bound PV's zone/region labels do not match the node's (NoVolumeZoneConflict). */
export const ErrReasonConflict = "node(s) had no available volume zone";
