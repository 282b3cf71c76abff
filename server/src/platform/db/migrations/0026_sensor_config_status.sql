-- A sensor's config status (spec §3: wait, configuring, configured, fail) is its latest
-- configuration command's: found by this index for each listed sensor.
CREATE INDEX device_command_sensor_latest ON device_command (sensor_id, id DESC) WHERE kind = 'config';
