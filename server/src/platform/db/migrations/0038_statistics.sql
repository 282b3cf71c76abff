-- Statistics an inspector accepts (issue 29, docs/statistics.md).

-- The carrier's ΔH/R for its mean kinetic temperature, in kelvin: 10,000 K (83.144 kJ/mol,
-- USP <1079.2>) unless the product's own activation energy says otherwise. Bounded to what
-- pharmaceutical degradation shows (about 40 to 170 kJ/mol), so that a typo cannot make an MKT.
ALTER TABLE carrier ADD COLUMN mkt_dh real NOT NULL DEFAULT 10000 CHECK (mkt_dh BETWEEN 4000 AND 20000);

-- Time-weighted sums that make the rollups answer the statistics exactly. For each measure m
-- of a bucket, over its readings where m is not null, in time order:
--   m_t0, m_t1  the first and last reading's time;
--   m_last      the last reading's value (it weighs past the bucket, until the next reading);
--   m_sw, m_sw2 Σ wᵢ·vᵢ and Σ wᵢ·vᵢ² where wᵢ = tᵢ₊₁ − tᵢ in seconds, within the bucket
--               (the last reading's weight is not known inside the bucket: it is left out);
--   temp_sk     Σ wᵢ·exp(−10000 / (vᵢ + 273.15)): the MKT sum at the default ΔH/R.
-- The weights of the pairs sum to m_t1 − m_t0, so no column holds them. Buckets merge exactly:
-- an hour is its 5-minute buckets plus the gap from each one's last reading to the next one's first.
ALTER TABLE reading_5m
  ADD COLUMN temp_t0 timestamptz, ADD COLUMN temp_t1 timestamptz, ADD COLUMN temp_last float8,
  ADD COLUMN temp_sw float8, ADD COLUMN temp_sw2 float8, ADD COLUMN temp_sk float8,
  ADD COLUMN hum_t0 timestamptz, ADD COLUMN hum_t1 timestamptz, ADD COLUMN hum_last float8,
  ADD COLUMN hum_sw float8, ADD COLUMN hum_sw2 float8;
ALTER TABLE reading_1h
  ADD COLUMN temp_t0 timestamptz, ADD COLUMN temp_t1 timestamptz, ADD COLUMN temp_last float8,
  ADD COLUMN temp_sw float8, ADD COLUMN temp_sw2 float8, ADD COLUMN temp_sk float8,
  ADD COLUMN hum_t0 timestamptz, ADD COLUMN hum_t1 timestamptz, ADD COLUMN hum_last float8,
  ADD COLUMN hum_sw float8, ADD COLUMN hum_sw2 float8;

-- Rows written before this migration lack the sums: every stored bucket is rolled up again.
-- The statistics read the raw readings of a bucket that is still pending, so they stay exact meanwhile.
INSERT INTO rollup_pending (sensor_id, bucket) SELECT DISTINCT sensor_id, bucket FROM reading_5m ON CONFLICT DO NOTHING;
