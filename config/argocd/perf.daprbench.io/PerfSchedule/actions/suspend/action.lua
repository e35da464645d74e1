-- Suspends the schedule: no new runs; an active one goes on. Where git sets spec.suspend, the
-- next sync (or self-heal) puts git's value back.
obj.spec.suspend = true
return obj
