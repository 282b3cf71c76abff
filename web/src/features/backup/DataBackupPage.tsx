/**
 * /dataBackup (spec §2, no sign-in): opens a signed, expiring link to one backup, made by a
 * platform administrator on /sys/backup. The page checks the link, shows what it names and
 * starts the download, with a button in case the browser did not.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Card, Descriptions, Result, Spin } from 'antd';
import { CloudDownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { backupRefs } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { errorMessage } from '../../app/errors';
import { LogoMark } from '../../ui/Logo';
import { fileSize } from './size';

const FIELDS = ['name', 'exp', 'by', 'sig'] as const;
const when = (ms: number) => dayjs(ms).format('YYYY-MM-DD HH:mm:ss');

export default function DataBackupPage() {
  const { t } = useTranslation('backup');
  const [params] = useSearchParams();
  const link = useMemo(() => Object.fromEntries(FIELDS.map((f) => [f, params.get(f) ?? ''])) as Record<(typeof FIELDS)[number], string>, [params]);
  const info = useCall(backupRefs.shared, { query: { ...link, exp: Number(link.exp), by: Number(link.by) } }, { retry: false });
  const fileUrl = `${backupRefs.sharedFile.path}?${new URLSearchParams(link)}`;
  const started = useRef(false);

  useEffect(() => {
    if (!info.data || started.current) return;
    started.current = true;
    // The answer is an attachment: the browser saves it and stays on this page.
    window.location.assign(fileUrl);
  }, [info.data, fileUrl]);

  return (
    <div style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', background: '#f1f4f9', padding: 16 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 10, marginBottom: 16 }}>
        <LogoMark size={28} />
        <span style={{ fontSize: 18, fontWeight: 600, color: '#0b1b33' }}>{t('common:product')}</span>
      </div>
      <Card title={t('page.title')} style={{ width: 'min(560px, 100%)' }}>
        {info.isLoading ? (
          <Spin tip={t('page.loading')}>
            <div style={{ height: 80 }} />
          </Spin>
        ) : info.isError ? (
          <Result status="warning" title={t('page.failed')} subTitle={errorMessage(info.error, t)} />
        ) : info.data ? (
          <>
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t('page.name')}>{info.data.name}</Descriptions.Item>
              <Descriptions.Item label={t('page.size')}>{info.data.sizeBytes === null ? '--' : fileSize(info.data.sizeBytes)}</Descriptions.Item>
              <Descriptions.Item label={t('page.createdAt')}>{when(info.data.createdAt)}</Descriptions.Item>
              <Descriptions.Item label={t('page.expiresAt')}>{when(info.data.expiresAt)}</Descriptions.Item>
            </Descriptions>
            <p style={{ margin: '16px 0' }}>{t('page.starting')}</p>
            <Button type="primary" icon={<CloudDownloadOutlined />} href={fileUrl} download data-testid="backup-download">
              {t('page.download')}
            </Button>
          </>
        ) : null}
      </Card>
    </div>
  );
}
