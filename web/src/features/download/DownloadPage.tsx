/** Spec §2 /download: the files ready to download (exports and reports), with their expiry (docs/exports.md). */
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageCard } from '../../ui';
import { DownloadTable } from './DownloadTable';

export default function DownloadPage() {
  const { t } = useTranslation('download');
  return (
    <PageCard>
      <Alert type="info" showIcon title={t('downloadIntro')} style={{ marginBottom: 12 }} />
      <DownloadTable status="generated" />
    </PageCard>
  );
}
