-- Argo CD health of a PerfSweep: Progressing while its points are measured (or before the
-- operator saw the latest spec), Healthy once it has a curve (the condition's message says
-- how many points failed, or the rate found), Degraded when no point could be measured.
local hs = {}
if obj.status == nil or obj.status.phase == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for the daprbench operator"
  return hs
end
if obj.metadata.generation ~= nil and (obj.status.observedGeneration or 0) < obj.metadata.generation then
  hs.status = "Progressing"
  hs.message = "Waiting for the operator to run generation " .. obj.metadata.generation
  return hs
end
local function condition(t)
  if obj.status.conditions ~= nil then
    for _, c in ipairs(obj.status.conditions) do
      if c.type == t and c.status == "True" then
        return c
      end
    end
  end
  return nil
end
if obj.status.phase == "Failed" then
  hs.status = "Degraded"
  local c = condition("Failed")
  hs.message = c and (c.reason .. ": " .. c.message) or "Failed"
  return hs
end
if obj.status.phase == "Succeeded" then
  hs.status = "Healthy"
  local c = condition("Succeeded")
  hs.message = c and c.message or "Succeeded"
  return hs
end
hs.status = "Progressing"
local total = 0
if obj.status.points ~= nil then
  total = #obj.status.points
end
-- No string.format: Argo CD opens no string library for a script from argocd-cm.
hs.message = (obj.status.measured or 0) .. " of " .. total .. " points measured"
return hs
