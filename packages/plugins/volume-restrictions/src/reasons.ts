// upstream: pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go

/** Conflicting in-line GCE PD / AWS EBS / RBD / ISCSI volume on the node (NoDiskConflict). */
export const ErrReasonDiskConflict = "node(s) had no available disk";

/** Another pod already uses a ReadWriteOncePod PVC the pod asks for. */
export const ErrReasonReadWriteOncePodConflict =
  "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode";
