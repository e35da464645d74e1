-- The actions Argo CD offers on a PerfSchedule: run-now starts a run of its template at once,
-- as `kubectl daprbench run --from=perfschedule/NAME` does; suspend and resume set
-- spec.suspend, the one that would change it enabled.
local actions = {}
actions["run-now"] = {["iconClass"] = "fa fa-fw fa-plus", ["displayName"] = "Run now"}
local suspended = obj.spec ~= nil and obj.spec.suspend == true
actions["suspend"] = {["iconClass"] = "fa fa-fw fa-pause", ["disabled"] = suspended}
actions["resume"] = {["iconClass"] = "fa fa-fw fa-play", ["disabled"] = not suspended}
return actions
