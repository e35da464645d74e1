-- Argo CD health of a PerfRun: Healthy once it succeeded with thresholds met and no
-- regression, Progressing while it runs (or before the operator saw the latest spec),
-- Degraded when it failed, violated a threshold, could not show a threshold met
-- (Inconclusive) or regressed: the verdict `kubectl daprbench run --wait` exits with
-- (docs/gitops.md has the table).
local hs = {}
local function condition(t)
  if obj.status ~= nil and obj.status.conditions ~= nil then
    for _, c in ipairs(obj.status.conditions) do
      if c.type == t then return c end
    end
  end
  return nil
end

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

local phase = obj.status.phase
if phase == "Failed" then
  local failed = condition("Failed")
  hs.status = "Degraded"
  hs.message = failed ~= nil and (failed.reason .. ": " .. failed.message) or "Failed"
  return hs
end
if phase == "Succeeded" then
  -- A gate not shown met fails, as run --wait exits 3 for it: violated (False) or
  -- Inconclusive (Unknown: a limit inside the interval or the repetitions' spread, or a
  -- figure the threshold needs was not measured).
  local thresholds = condition("ThresholdsMet")
  if thresholds ~= nil and thresholds.status ~= "True" then
    hs.status = "Degraded"
    if thresholds.status == "False" and thresholds.reason ~= "Inconclusive" then
      hs.message = "Thresholds violated: " .. (thresholds.message or "")
    else
      hs.message = "Thresholds inconclusive (not shown met): " .. (thresholds.message or "")
    end
    return hs
  end
  local regressed = condition("Regressed")
  if regressed ~= nil and regressed.status == "True" then
    hs.status = "Degraded"
    hs.message = "Regressed: " .. regressed.message
    return hs
  end
  local succeeded = condition("Succeeded")
  hs.status = "Healthy"
  hs.message = succeeded ~= nil and succeeded.message or "Succeeded"
  return hs
end

hs.status = "Progressing"
local workloads = condition("WorkloadsReady")
if workloads ~= nil and workloads.status ~= "True" then
  hs.message = phase .. ": " .. workloads.message
else
  hs.message = phase
end
return hs
