-- Durable jobs (platform/jobs/runner.ts, docs/jobs.md) and reading rollups (ingest/rollup.ts).

-- One row per run of a job: queued until its run_at, running under a lease, then done or failed.
-- A running row whose lease ran out (its process died) is claimed again.
CREATE TABLE job (
  id            bigserial PRIMARY KEY,
  name          text NOT NULL,
  payload       jsonb NOT NULL DEFAULT '{}',
  state         text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  attempts      int NOT NULL DEFAULT 0,
  max_attempts  int NOT NULL DEFAULT 5,
  run_at        timestamptz NOT NULL DEFAULT now(),
  lease_until   timestamptz,
  started_at    timestamptz,
  finished_at   timestamptz,
  -- 'schedule' for the periodic run, 'manual' for "run now": at most one of each waits or runs.
  singleton     text,
  result        text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_due ON job (run_at, id) WHERE state IN ('queued', 'running');
CREATE INDEX job_name_finished ON job (name, finished_at DESC);
CREATE UNIQUE INDEX job_singleton ON job (name, singleton) WHERE singleton IS NOT NULL AND state IN ('queued', 'running');

-- The periodic jobs and when each is next due; one row per registered name.
CREATE TABLE job_schedule (
  name           text PRIMARY KEY,
  every_s        int NOT NULL CHECK (every_s > 0),
  next_run_at    timestamptz NOT NULL DEFAULT now(),
  last_run_at    timestamptz,
  last_state     text,
  last_result    text NOT NULL DEFAULT '',
  last_ms        int
);

-- Rollups of readings per sensor: 5-minute and hourly buckets. Sums and counts (not averages)
-- so buckets merge exactly; first_ts/last_ts are the bucket's first and last reading.
CREATE TABLE reading_5m (
  sensor_id    int NOT NULL,
  bucket       timestamptz NOT NULL,
  customer_id  int NOT NULL,
  n            int NOT NULL,
  first_ts     timestamptz NOT NULL,
  last_ts      timestamptz NOT NULL,
  temp_min real, temp_max real, temp_sum float8, temp_n int NOT NULL DEFAULT 0,
  hum_min  real, hum_max  real, hum_sum  float8, hum_n  int NOT NULL DEFAULT 0,
  gas_min  real, gas_max  real, gas_sum  float8, gas_n  int NOT NULL DEFAULT 0,
  PRIMARY KEY (sensor_id, bucket)
);
CREATE INDEX reading_5m_customer ON reading_5m (customer_id);
CREATE INDEX reading_5m_bucket ON reading_5m (bucket);

CREATE TABLE reading_1h (LIKE reading_5m INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
ALTER TABLE reading_1h ADD PRIMARY KEY (sensor_id, bucket);
CREATE INDEX reading_1h_customer ON reading_1h (customer_id);
CREATE INDEX reading_1h_bucket ON reading_1h (bucket);

-- 5-minute buckets whose readings changed since they were last rolled up. The writer adds
-- them in the transaction of the readings; the rollup job takes them.
CREATE TABLE rollup_pending (
  sensor_id  int NOT NULL,
  bucket     timestamptz NOT NULL,
  PRIMARY KEY (sensor_id, bucket)
);

-- Back-fill: every bucket of the readings already stored.
INSERT INTO rollup_pending (sensor_id, bucket)
SELECT DISTINCT sensor_id, to_timestamp(floor(extract(epoch from ts) / 300) * 300) FROM reading
ON CONFLICT DO NOTHING;
