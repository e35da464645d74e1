-- Resumes the schedule: slots run again. As for a CronJob, the latest slot missed while it was
-- suspended may run at once, unless it is later than spec.startingDeadlineSeconds allows.
-- Where git sets spec.suspend, the next sync (or self-heal) puts git's value back.
obj.spec.suspend = false
return obj
