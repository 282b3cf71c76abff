import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button, Tooltip } from 'antd';
import { PlusOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { IMPLEMENTED, preloadPage } from '../../app/pages';
import { menuIcon } from '../../app/shell/menuIcons';
import { useMenuLabel } from '../../app/shell/SideMenu';
import { shortcutRefs } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { ShortcutDialog } from './ShortcutDialog';
import './shortcut.css';

/** The shortcut bar under the header (spec §2): the user's chosen menu entries and the dialog to edit them. */
export function ShortcutBar() {
  const { t } = useTranslation('shortcut');
  const label = useMenuLabel();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const { data } = useCall(shortcutRefs.list, undefined, { staleTime: 60_000 });
  // Entries whose page this build does not have are not offered (no dead links).
  const items = (data ?? []).filter((s) => IMPLEMENTED.has(s.url));

  return (
    <div className="cw-shortcuts" role="toolbar" aria-label={t('bar')}>
      <span className="cw-shortcuts-title">
        <ThunderboltOutlined /> {t('bar')}
      </span>
      <div className="cw-shortcuts-list">
        {items.map((s) => (
          <button
            key={s.id}
            type="button"
            className={`cw-shortcut${pathname === s.url ? ' cw-shortcut-active' : ''}`}
            onClick={() => navigate(s.url)}
            onMouseEnter={() => preloadPage(s.url)}
            onFocus={() => preloadPage(s.url)}
          >
            {menuIcon(s.code, s.icon)}
            <span>{label(s.code, s.name)}</span>
          </button>
        ))}
        {data && items.length === 0 && <span className="cw-shortcuts-empty">{t('empty')}</span>}
      </div>
      <Tooltip title={t('edit')}>
        <Button size="small" type="dashed" icon={<PlusOutlined />} onClick={() => setOpen(true)} aria-label={t('edit')}>
          {t('manage')}
        </Button>
      </Tooltip>
      <ShortcutDialog open={open} onClose={() => setOpen(false)} />
    </div>
  );
}
