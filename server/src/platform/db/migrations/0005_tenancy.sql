-- Tenancy, accounts, roles and permissions (spec §3 Customer/User/Role/Menu resource/
-- Shortcut, §6). A user's functions are the union of its active roles' functions, cut to
-- what its account type may reach; its customers are its own, the governed customers of
-- its proxy roles, or every customer for platform accounts.

ALTER TABLE app_user ADD COLUMN default_account boolean NOT NULL DEFAULT false;
ALTER TABLE app_user ADD COLUMN proxy_customer_id integer REFERENCES customer(id) ON DELETE SET NULL;
ALTER TABLE app_user ADD COLUMN avatar text;
ALTER TABLE app_user ADD COLUMN signature text;
ALTER TABLE app_user ADD COLUMN cancelled_by_customer boolean NOT NULL DEFAULT false;

-- Menu resources: the menu tree of spec §2, synchronised from packages/contract/src/menu.ts at start.
CREATE TABLE menu_resource (
  id            serial PRIMARY KEY,
  parent_id     integer      REFERENCES menu_resource(id) ON DELETE CASCADE,
  code          varchar(40)  NOT NULL UNIQUE,
  name          varchar(50)  NOT NULL UNIQUE,
  url           varchar(100) NOT NULL DEFAULT '',
  icon          varchar(40)  NOT NULL DEFAULT '',
  hidden        boolean      NOT NULL DEFAULT false,
  enabled       boolean      NOT NULL DEFAULT true,
  visible       varchar(10)  NOT NULL DEFAULT 'all',          -- all | admin | system
  func_object   varchar(30),                                  -- view/new/edit/remove<Object>
  extra_code    varchar(40)  NOT NULL DEFAULT '',
  access_level  smallint     NOT NULL DEFAULT 0,              -- spec §6 levels 0..4
  sort          integer      NOT NULL DEFAULT 0,
  builtin       boolean      NOT NULL DEFAULT false           -- from the product's menu, not added by hand
);

CREATE TABLE role (
  id            serial PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  name          varchar(50)  NOT NULL,
  status        smallint     NOT NULL DEFAULT 1,             -- 1 active, 0 cancelled
  type          varchar(10)  NOT NULL DEFAULT 'normal',      -- admin | normal
  level         smallint     NOT NULL DEFAULT 0,             -- spec §6 role level -1..3
  is_default    boolean      NOT NULL DEFAULT false,
  delegable     boolean      NOT NULL DEFAULT false,
  description   varchar(250) NOT NULL DEFAULT '',
  cancelled_by_customer boolean NOT NULL DEFAULT false,
  created_at    timestamptz  NOT NULL DEFAULT now(),
  UNIQUE (customer_id, name)
);

CREATE TABLE role_func (
  role_id       integer      NOT NULL REFERENCES role(id) ON DELETE CASCADE,
  func          varchar(40)  NOT NULL,
  PRIMARY KEY (role_id, func)
);

CREATE TABLE role_resource (
  role_id       integer      NOT NULL REFERENCES role(id) ON DELETE CASCADE,
  resource_id   integer      NOT NULL REFERENCES menu_resource(id) ON DELETE CASCADE,
  PRIMARY KEY (role_id, resource_id)
);

-- Customers a proxy (agent) role governs.
CREATE TABLE role_proxy_customer (
  role_id       integer      NOT NULL REFERENCES role(id) ON DELETE CASCADE,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  PRIMARY KEY (role_id, customer_id)
);

-- Scenes a role or a user is limited to ("associated architecture"); none means the whole customer.
CREATE TABLE role_scene (
  role_id       integer      NOT NULL REFERENCES role(id) ON DELETE CASCADE,
  scene_id      integer      NOT NULL REFERENCES scene(id) ON DELETE CASCADE,
  PRIMARY KEY (role_id, scene_id)
);

CREATE TABLE user_role (
  user_id       integer      NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
  role_id       integer      NOT NULL REFERENCES role(id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, role_id)
);
CREATE INDEX user_role_role ON user_role(role_id);

CREATE TABLE user_scene (
  user_id       integer      NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
  scene_id      integer      NOT NULL REFERENCES scene(id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, scene_id)
);

CREATE TABLE shortcut (
  user_id       integer      NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
  resource_id   integer      NOT NULL REFERENCES menu_resource(id) ON DELETE CASCADE,
  sort          integer      NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, resource_id)
);

-- Login by QR code: the browser shows a key; a signed-in mobile client confirms it.
CREATE TABLE login_qr (
  key           varchar(64)  PRIMARY KEY,
  status        varchar(10)  NOT NULL DEFAULT 'waiting',     -- waiting | confirmed | used
  user_id       integer      REFERENCES app_user(id) ON DELETE CASCADE,
  expires_at    timestamptz  NOT NULL,
  created_at    timestamptz  NOT NULL DEFAULT now()
);

-- Why a session ended early: 'conflict' (the account logged in elsewhere, spec §8 500104).
ALTER TABLE user_session ADD COLUMN revoked varchar(10);
