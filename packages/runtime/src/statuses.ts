// How the runtime words the statuses it returns (upstream framework.go's fmt.Errorf wrappers), shared
// by the run*Plugins loops (framework.ts) and the instrumented plugins that report the same statuses.
import { Code, Status } from "@kubesched/framework";

/** The message of a non-success status as an error (upstream status.AsError() in %w). */
export function errMessage(s: Status): string {
  return s.asError()?.message ?? s.message();
}

export function wrapError(msg: string): Status {
  return new Status(Code.Error).withError(new Error(msg));
}

/**
 * A Filter plugin's failure as the runtime reports it: the plugin named on it, anything but a
 * rejection turned into an Error (Filter plugins should only return Success or a rejection).
 */
export function filterFailure(pluginName: string, s: Status): Status {
  const out = s.isRejected() ? s : wrapError(`running "${pluginName}" filter plugin: ${errMessage(s)}`);
  out.plugin = pluginName;
  return out;
}
