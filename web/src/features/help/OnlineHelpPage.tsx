import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageCard } from '../../ui';
import { HelpArticles } from './HelpArticles';

/** /sys/online_help (spec §2, menu onlineHelp): every help article, searchable; ?code= or ?path= opens one. */
export default function OnlineHelpPage() {
  const { t } = useTranslation('help');
  const [params] = useSearchParams();
  return (
    <PageCard title={t('title')}>
      <HelpArticles code={params.get('code')} path={params.get('path')} />
    </PageCard>
  );
}
