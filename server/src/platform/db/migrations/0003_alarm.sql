-- Alarm evaluation (docs/alarms.md).

-- Sampling time of the last out-of-range reading a data exception covers. With it the
-- evaluator knows whether an exception already summarises every reading before a new
-- window (then start/first/peak carry over and an append costs only the new readings),
-- or whether back-filled readings reach into it (then the run is recounted from the data).
ALTER TABLE exception_record ADD COLUMN last_ts timestamptz;

-- The evaluator's look-ups: a sensor's data exceptions of one category around a window.
CREATE INDEX exception_sensor_category ON exception_record(sensor_id, category, start_ts) WHERE type = 'data';

-- Exception detail lists its notices.
CREATE INDEX notice_exception ON notice_log(exception_id);
