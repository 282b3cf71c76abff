/**
 * The sensor import (spec §7 sensor/importSensor): download the template, upload the filled
 * xlsx; a refused file lists every bad row and field, and nothing is imported.
 */
import { useState } from 'react';
import { Alert, App, Button, Modal, Space, Table, Typography, Upload } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { SENSOR_KIND_DEFS, type SensorKindDef } from './sensorKinds';
import { upload } from '../../api/call';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../app/errors';

interface BadField {
  key: string;
  row: number;
  column: string;
  message: string;
}

/** `{"138.devNo": "…"}` → rows of the error table, in row order. */
export const badFields = (details: Record<string, string>): BadField[] =>
  Object.entries(details)
    .map(([key, message]) => {
      const [row, column] = key.split('.');
      return { key, row: Number(row), column: column ?? '', message };
    })
    .sort((a, b) => a.row - b.row || a.column.localeCompare(b.column));

export function ImportDialog({ def = SENSOR_KIND_DEFS.sensor, open, onClose, onDone }: { def?: SensorKindDef; open: boolean; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('device');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ msg: string; fields: BadField[] } | null>(null);

  const send = async (file: File) => {
    setBusy(true);
    setFailure(null);
    try {
      const r = await upload(def.api.importFile, file, { query: {} });
      void message.success(t('import.done', { count: r.result.imported }));
      onDone();
      onClose();
    } catch (e) {
      setFailure({ msg: errorMessage(e, t), fields: e instanceof ApiError && e.details ? badFields(e.details) : [] });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} title={t(`${def.texts}.importTitle`)} footer={null} onCancel={onClose} width={680} destroyOnHidden>
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t(`${def.texts}.importHelp`)}
        </Typography.Paragraph>
        <Button icon={<DownloadOutlined />} href={def.api.importTemplate.path} download>
          {t('import.template')}
        </Button>
        <Upload.Dragger accept=".xlsx" multiple={false} showUploadList={false} disabled={busy} beforeUpload={(file) => (void send(file), false)}>
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{busy ? t('import.busy') : t('import.drop')}</p>
        </Upload.Dragger>
        {failure && (
          <Alert
            type="error"
            showIcon
            title={failure.msg}
            description={
              failure.fields.length > 0 && (
                <Table<BadField>
                  size="small"
                  rowKey="key"
                  dataSource={failure.fields}
                  pagination={failure.fields.length > 10 ? { pageSize: 10, size: 'small' } : false}
                  columns={[
                    { title: t('import.row'), dataIndex: 'row', width: 70 },
                    { title: t('import.column'), dataIndex: 'column', width: 160, render: (c: string) => t(`import.columns.${c}`, { defaultValue: c }) },
                    { title: t('import.problem'), dataIndex: 'message' },
                  ]}
                />
              )
            }
          />
        )}
      </Space>
    </Modal>
  );
}
