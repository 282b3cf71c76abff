-- Spec §3 Sensor: calibration expiry date and calibration notice time (§5: not before now; the
-- alarms work sends the notice), and the device's own time zone (UTC-12..UTC+12, like gateways).
ALTER TABLE sensor
  ADD COLUMN calib_expiry  date,
  ADD COLUMN calib_notice  timestamptz,
  ADD COLUMN tz            varchar(6)   NOT NULL DEFAULT '+08:00';
CREATE INDEX sensor_calib_notice ON sensor (calib_notice) WHERE calib_notice IS NOT NULL;
