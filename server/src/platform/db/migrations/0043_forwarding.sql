-- Forwarding to external servers and platforms (spec §2 /sys/forwarding, §3 Forwarding server,
-- Forward setting, Platform; docs/forwarding.md). Everything is a customer's own: a hospital
-- reports its readings to its provincial platform with its own credentials.

-- A remote: an MQTT broker (publish topic, QoS) or an HTTP receiver (host, port and path: its URI).
-- The password is stored encrypted (AES-256-GCM, modules/forwarding/secret.ts) and never answered.
CREATE TABLE forward_server (
  id            serial PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  type          varchar(4)   NOT NULL CHECK (type IN ('mqtt', 'http')),
  name          varchar(50)  NOT NULL,
  host          varchar(255) NOT NULL,
  port          integer      NOT NULL CHECK (port BETWEEN 1 AND 65535),
  tls           boolean      NOT NULL DEFAULT false,
  path          varchar(255) NOT NULL DEFAULT '',
  client_id     varchar(64)  NOT NULL DEFAULT '',
  username      varchar(64)  NOT NULL DEFAULT '',
  password_enc  text         NOT NULL DEFAULT '',
  qos           smallint     NOT NULL DEFAULT 1 CHECK (qos IN (0, 1, 2)),
  timeout_s     smallint     NOT NULL DEFAULT 10 CHECK (timeout_s BETWEEN 0 AND 30),
  heartbeat_s   smallint     NOT NULL DEFAULT 30 CHECK (heartbeat_s BETWEEN 0 AND 60),
  sub_topic     varchar(64)  NOT NULL DEFAULT '',
  pub_topic     varchar(64)  NOT NULL DEFAULT '',
  enabled       boolean      NOT NULL DEFAULT true,
  created_at    timestamptz  NOT NULL DEFAULT now(),
  updated_at    timestamptz  NOT NULL DEFAULT now(),
  UNIQUE (customer_id, name)
);
-- §8 "existing host port" (a broker) and "existing URI" (an HTTP receiver), per customer.
CREATE UNIQUE INDEX forward_server_host_port ON forward_server(customer_id, lower(host), port) WHERE type = 'mqtt';
CREATE UNIQUE INDEX forward_server_uri ON forward_server(customer_id, lower(host), port, path) WHERE type = 'http';

-- A supervision platform reached through one of the customer's servers: its identity goes into
-- every message and its key signs it (docs/forwarding.md "Platforms"). The key is encrypted.
CREATE TABLE forward_platform (
  id            serial PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  server_id     integer      NOT NULL REFERENCES forward_server(id),
  code          varchar(20)  NOT NULL,
  name          varchar(50)  NOT NULL,
  vendor_code   varchar(20)  NOT NULL DEFAULT '',
  app_id        varchar(64)  NOT NULL,
  key_enc       text         NOT NULL DEFAULT '',
  created_at    timestamptz  NOT NULL DEFAULT now(),
  UNIQUE (customer_id, code),
  UNIQUE (customer_id, app_id)
);

-- A forward setting: a carrier (all its sensors, in order of time) or one sensor sent to a server,
-- directly or as a platform's. Its cursor is where forwarding stands: the last reading sent,
-- as (ts, sensor_id) in the order of the stream, and the last exception sent. The forwarder
-- reads the reading table by the primary key (sensor_id, ts) from there, so ingest does no
-- work for forwarding (docs/forwarding.md "Durable, at least once").
CREATE TABLE forward_binding (
  id             serial PRIMARY KEY,
  customer_id    integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  server_id      integer      NOT NULL REFERENCES forward_server(id),
  platform_id    integer      REFERENCES forward_platform(id),
  carrier_id     integer      REFERENCES carrier(id) ON DELETE CASCADE,
  sensor_id      integer      REFERENCES sensor(id) ON DELETE CASCADE,
  exceptions     boolean      NOT NULL DEFAULT false,
  enabled        boolean      NOT NULL DEFAULT true,
  cursor_ts      timestamptz  NOT NULL DEFAULT now(),
  cursor_sensor  integer      NOT NULL DEFAULT 0,
  cursor_ex      bigint       NOT NULL DEFAULT 0,
  created_at     timestamptz  NOT NULL DEFAULT now(),
  CHECK (num_nonnulls(carrier_id, sensor_id) = 1)
);
CREATE UNIQUE INDEX forward_binding_carrier ON forward_binding(server_id, carrier_id) WHERE carrier_id IS NOT NULL;
CREATE UNIQUE INDEX forward_binding_sensor ON forward_binding(server_id, sensor_id) WHERE sensor_id IS NOT NULL;
CREATE INDEX forward_binding_customer ON forward_binding(customer_id);

-- The forwarder's state per server: which console runs it (a lease, so that one replica
-- forwards each server), and what the page and /metrics show.
CREATE TABLE forward_state (
  server_id         integer      PRIMARY KEY REFERENCES forward_server(id) ON DELETE CASCADE,
  customer_id       integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  owner             varchar(64)  NOT NULL DEFAULT '',
  lease_until       timestamptz  NOT NULL DEFAULT '-infinity',
  connected         boolean      NOT NULL DEFAULT false,
  last_forwarded_at timestamptz,
  forwarded         bigint       NOT NULL DEFAULT 0,
  backlog           integer      NOT NULL DEFAULT 0,
  last_error        varchar(500) NOT NULL DEFAULT '',
  last_error_at     timestamptz,
  retry_at          timestamptz  NOT NULL DEFAULT '-infinity',
  failures          integer      NOT NULL DEFAULT 0
);
