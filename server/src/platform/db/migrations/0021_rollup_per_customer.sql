-- A lent sensor's readings belong to two customers (docs/devices.md "Lending"): a rollup bucket
-- that straddles the hand-over keeps one row per customer, so neither sees the other's figures.
ALTER TABLE reading_5m DROP CONSTRAINT reading_5m_pkey;
ALTER TABLE reading_5m ADD PRIMARY KEY (sensor_id, bucket, customer_id);
ALTER TABLE reading_1h DROP CONSTRAINT reading_1h_pkey;
ALTER TABLE reading_1h ADD PRIMARY KEY (sensor_id, bucket, customer_id);
