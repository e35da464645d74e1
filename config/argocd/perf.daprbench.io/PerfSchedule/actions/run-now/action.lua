-- Starts a run of the schedule's template now, as `kubectl daprbench run
-- --from=perfschedule/NAME` does: a PerfRun named <schedule>-manual-<5 random characters>
-- (generateName; a PerfRun name is at most 40 characters, so this works for schedule names of
-- up to 27), with the template's labels, annotations and spec, annotated
-- perf.daprbench.io/from-schedule. Like the CLI's, it is not one of the schedule's runs (no
-- owner, no schedule label): the schedule's history, regression judgement and pruning stay
-- those of its own slots. PerfSchedule has no field or annotation that asks the operator for a
-- run now, so the action creates the run itself.

-- copy deep-copies a value, leaving out empty tables: Lua cannot tell an empty object from an
-- empty list, and Argo CD encodes both as [], which the API server refuses where an object
-- belongs. So an object the template holds empty (target.resources: {}) is absent from the
-- run, and the API server defaults it as it defaults any run.
local function copy(value)
  if type(value) ~= "table" then
    return value
  end
  local t = {}
  for k, v in pairs(value) do
    t[k] = copy(v)
  end
  if next(t) == nil then
    return nil
  end
  return t
end

local template = obj.spec.template
local templateMetadata = template.metadata or {}
local run = {}
run.apiVersion = "perf.daprbench.io/v1alpha1"
run.kind = "PerfRun"
run.metadata = {}
run.metadata.generateName = obj.metadata.name .. "-manual-"
run.metadata.namespace = obj.metadata.namespace
run.metadata.labels = copy(templateMetadata.labels)
run.metadata.annotations = copy(templateMetadata.annotations) or {}
run.metadata.annotations["perf.daprbench.io/from-schedule"] = obj.metadata.name
run.spec = copy(template.spec)

local created = {}
created.operation = "create"
created.resource = run
return {created}
