-- The guide (spec §3 "Guide group and item", §7 guide/* and share/guide, §2 /guide and
-- /sys/online_help; docs/help.md): groups of help articles, one per section of the console,
-- each article in both languages and tied to the page it explains. Platform-wide: every
-- customer reads the same guide; platform staff edit it. The product's own articles are
-- synchronised at start (builtin); one edited by staff keeps the staff's text (edited).
CREATE TABLE guide_group (
  id          serial PRIMARY KEY,
  code        varchar(50)  NOT NULL UNIQUE,
  name_zh     varchar(100) NOT NULL,
  name_en     varchar(100) NOT NULL,
  sort        integer      NOT NULL DEFAULT 0,
  -- 1 shown, 0 hidden (the spec's status).
  status      smallint     NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
  builtin     boolean      NOT NULL DEFAULT false,
  edited      boolean      NOT NULL DEFAULT false,
  updated_at  timestamptz  NOT NULL DEFAULT now()
);

CREATE TABLE guide_item (
  id          serial PRIMARY KEY,
  -- A group with articles is not deleted (spec §8 warning style): RESTRICT says so in the database too.
  group_id    integer      NOT NULL REFERENCES guide_group(id) ON DELETE RESTRICT,
  code        varchar(50)  NOT NULL UNIQUE,
  name_zh     varchar(100) NOT NULL,
  name_en     varchar(100) NOT NULL,
  content_zh  text         NOT NULL DEFAULT '' CHECK (length(content_zh) <= 20000),
  content_en  text         NOT NULL DEFAULT '' CHECK (length(content_en) <= 20000),
  -- The console page the article explains ('' none): the header's help button opens it there.
  path        varchar(200) NOT NULL DEFAULT '',
  sort        integer      NOT NULL DEFAULT 0,
  status      smallint     NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
  builtin     boolean      NOT NULL DEFAULT false,
  edited      boolean      NOT NULL DEFAULT false,
  updated_at  timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX guide_item_group ON guide_item(group_id);
CREATE INDEX guide_item_path ON guide_item(path) WHERE path <> '';
