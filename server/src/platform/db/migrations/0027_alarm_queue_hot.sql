-- A queued window holding a reading outside its carrier's zone is "hot": it may open an
-- exception, so the evaluator takes it before the quiet windows queued ahead of it (alarm
-- latency under load). The ingest writer sets hot_version to the window's version when such a
-- reading widens it; an evaluation of that version (or a later one) clears it, so a window that
-- a batch of in-range readings widened during its evaluation is not taken as hot again.
ALTER TABLE alarm_queue ADD COLUMN hot_version bigint;
-- The evaluator's next windows (alarm/quiet.ts nextWindows) in index order: without it, the
-- queue (a few hundred live rows among many dead ones under load) was sorted whole, by a
-- parallel scan, on every pass.
CREATE INDEX alarm_queue_next ON alarm_queue ((hot_version IS NOT NULL) DESC, queued_at);
