import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Card } from 'antd';
import { HelpArticles } from './HelpArticles';

/**
 * /guide (spec §2 "opens in a popup window"): the guide without the console around it, for a
 * window beside the page the user works on; the header's help button opens it on that page's article.
 */
export default function GuidePopupPage() {
  const { t } = useTranslation('help');
  const [params] = useSearchParams();
  return (
    <Card title={t('title')} variant="borderless" className="cw-guide-popup">
      <HelpArticles code={params.get('code')} path={params.get('path')} />
    </Card>
  );
}
