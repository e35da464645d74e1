-- Argo CD health of a PerfSchedule: Suspended when suspended, Progressing before the
-- operator handled the latest spec, Degraded when its schedule cannot be parsed or its
-- latest run regressed, Healthy otherwise. Its runs' own gates show on the runs.
local hs = {}
if obj.spec ~= nil and obj.spec.suspend == true then
  hs.status = "Suspended"
  hs.message = "spec.suspend is true"
  return hs
end
if obj.status == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for the daprbench operator"
  return hs
end
if obj.metadata.generation ~= nil and (obj.status.observedGeneration or 0) < obj.metadata.generation then
  hs.status = "Progressing"
  hs.message = "Waiting for the operator to handle generation " .. obj.metadata.generation
  return hs
end
if obj.status.conditions ~= nil then
  for _, c in ipairs(obj.status.conditions) do
    if c.type == "Scheduled" and c.reason == "InvalidSchedule" then
      hs.status = "Degraded"
      hs.message = c.message
      return hs
    end
  end
end
if obj.status.latestRegressed == true then
  hs.status = "Degraded"
  hs.message = "The latest run regressed: " .. (obj.status.lastRun or "")
  return hs
end
hs.status = "Healthy"
if obj.status.lastRun ~= nil then
  hs.message = "Last run " .. obj.status.lastRun
else
  hs.message = "No run yet"
end
return hs
