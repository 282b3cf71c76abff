/** Spec §2 /count/exportTask: the caller's export tasks, their progress and outcome; a new export (docs/exports.md). */
import { useState } from 'react';
import { Alert, Button } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PageCard } from '../../ui';
import { DownloadTable } from './DownloadTable';
import { NewExportDialog } from './NewExportDialog';

export default function ExportTaskPage() {
  const { t } = useTranslation('download');
  const [open, setOpen] = useState(false);
  return (
    <PageCard>
      <Alert type="info" showIcon title={t('taskIntro')} style={{ marginBottom: 12 }} />
      <DownloadTable
        kind="export"
        toolbar={
          <div style={{ marginBottom: 12 }}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)} className="cw-new-export">
              {t('new')}
            </Button>
          </div>
        }
      />
      <NewExportDialog open={open} onClose={() => setOpen(false)} />
    </PageCard>
  );
}
