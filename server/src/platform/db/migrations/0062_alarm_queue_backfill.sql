-- A gateway back from an outage sends its buffer a minute at a time, minutes behind the clock
-- and faster than the clock (an hour in a few minutes). Judged as soon as each part committed,
-- an excursion in the buffer met the evaluator before the readings that end it, and was told as
-- a live alarm though it was long over. The writer marks such a window back-filled (its newest
-- reading behind the clock, and widened faster than the clock since its last widening), and the
-- evaluator holds it while its buffer keeps arriving (alarm/quiet.ts nextWindows), so the whole
-- buffer is judged at once. widened_at is when a batch last widened the window.
ALTER TABLE alarm_queue ADD COLUMN widened_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE alarm_queue ADD COLUMN backfill boolean NOT NULL DEFAULT false;
