// upstream: pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go

/** `waiting for scheduling gates: [foo bar]` — Go's %v of a []string: space-separated in brackets. */
export function waitingForSchedulingGatesReason(gates: readonly string[]): string {
  return `waiting for scheduling gates: [${gates.join(" ")}]`;
}
