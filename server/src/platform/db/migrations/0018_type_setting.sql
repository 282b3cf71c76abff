-- What the platform decides about the device-type and carrier-type catalogues of spec §3
-- (the types themselves and what they report are in packages/contract/src/deviceTypes.ts):
-- whether a type is offered for new devices or carriers, and a note. A type without a row
-- is offered. kind: sensor, gas, magnet, gateway, display, relay, base, or carrier (code =
-- the carrier type's number).
CREATE TABLE type_setting (
  kind        varchar(20)  NOT NULL,
  code        varchar(20)  NOT NULL,
  enabled     boolean      NOT NULL DEFAULT true,
  remark      varchar(250) NOT NULL DEFAULT '',
  updated_at  timestamptz  NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, code)
);
