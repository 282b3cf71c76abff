import { lazy, Suspense } from 'react';
import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { USER_TYPE } from '@coldwatch/contract';
import { useAuth } from '../../app/auth';
import { PageCard } from '../../ui';
import { HelpArticles } from './HelpArticles';

const GuideAdmin = lazy(() => import('./GuideAdmin').then((m) => ({ default: m.GuideAdmin })));

/**
 * /sys/online_help (spec §2, menu onlineHelp): every help article, searchable; ?code= or ?path=
 * opens one. Platform staff holding viewParam also manage the guide here (?tab=manage).
 */
export default function OnlineHelpPage() {
  const { t } = useTranslation('help');
  const { can, userType } = useAuth();
  const [params, setParams] = useSearchParams();
  const read = <HelpArticles code={params.get('code')} path={params.get('path')} />;
  const staff = userType !== undefined && userType >= USER_TYPE.platformUser && can('viewParam');
  return (
    <PageCard title={t('title')}>
      {staff ? (
        <Tabs
          activeKey={params.get('tab') === 'manage' ? 'manage' : 'read'}
          onChange={(k) => setParams(k === 'manage' ? { tab: 'manage' } : {})}
          items={[
            { key: 'read', label: t('admin.read'), children: read },
            {
              key: 'manage',
              label: t('admin.manage'),
              children: (
                <Suspense fallback={null}>
                  <GuideAdmin />
                </Suspense>
              ),
            },
          ]}
        />
      ) : (
        read
      )}
    </PageCard>
  );
}
