-- Parameter configuration (spec §3, §4; docs/devices.md): who issued a command and which
-- parameters (order type of the config log: collect or network; output for a switch).
ALTER TABLE device_command ADD COLUMN operator   varchar(50) NOT NULL DEFAULT '';
ALTER TABLE device_command ADD COLUMN order_type varchar(20) NOT NULL DEFAULT 'config';
CREATE INDEX device_command_customer_created ON device_command (customer_id, created_at DESC);
CREATE INDEX device_command_sensor_open ON device_command (sensor_id) WHERE status IN ('prepare', 'issuing');
