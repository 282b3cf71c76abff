import { Button, Tooltip } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';

/** The header's help button: the guide, in a window of its own (spec §2 /guide), on the article of the page the user is on. */
export function HelpButton() {
  const { t } = useTranslation('help');
  const { pathname } = useLocation();
  const url = `/guide?path=${encodeURIComponent(pathname)}`;
  return (
    <Tooltip title={t('button')}>
      <Button
        type="text"
        icon={<QuestionCircleOutlined />}
        aria-label={t('button')}
        href={url}
        data-testid="help-button"
        onClick={(e) => {
          // A window beside the console; where pop-ups are blocked the link opens as a page.
          if (window.open(url, 'coldwatch-guide', 'width=520,height=760,noopener=no')) e.preventDefault();
        }}
      />
    </Tooltip>
  );
}
