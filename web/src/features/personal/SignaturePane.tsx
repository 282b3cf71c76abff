import { Alert, App, Button, Descriptions, Empty, Spin, Typography, Upload } from 'antd';
import { LoadingOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { errorMessage } from '../../app/errors';
import { formatInZone, formatSize } from '../../lib/format';
import { mineApi } from '@coldwatch/contract';
import { useCall, useUpload } from '../../api/hooks';
import { checkSignature } from './signature';

/** Personal page → digital signature (spec §3 User): the picture put on reports; PNG or JPG under 500 KB. */
export function SignaturePane() {
  const { t } = useTranslation('personal');
  const { message } = App.useApp();
  const { user } = useAuth();
  const detail = useCall(mineApi.signature, { query: {} });
  const sig = detail.data;
  const has = !!sig?.signature;
  const save = useUpload(mineApi.saveSignature, { success: t(has ? 'signature.replaced' : 'signature.saved'), invalidates: [mineApi.signature] });
  const uploading = save.busy;

  const beforeUpload = (file: File) => {
    const problem = checkSignature(file);
    if (problem) {
      void message.error(t(problem === 'type' ? 'signature.type' : 'signature.size'));
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  return (
    <div className="cw-sign">
      <Typography.Paragraph type="secondary" className="cw-sign-intro">
        {t('signature.intro')}
      </Typography.Paragraph>
      {detail.isError && <Alert type="error" showIcon title={errorMessage(detail.error, t)} style={{ marginBottom: 16 }} />}
      <div className="cw-sign-frame" data-testid="signature-frame">
        {detail.isLoading ? (
          <Spin />
        ) : has ? (
          <img src={sig!.signature!} alt={t('signature.alt')} className="cw-sign-img" data-testid="signature-img" />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('signature.none')} />
        )}
      </div>
      {has && (
        <Descriptions column={1} size="small" className="cw-sign-meta">
          <Descriptions.Item label={t('signature.format')}>{sig!.mime === 'image/png' ? 'PNG' : 'JPG'}</Descriptions.Item>
          <Descriptions.Item label={t('signature.fileSize')}>{formatSize(sig!.size)}</Descriptions.Item>
          {sig!.updatedAt && <Descriptions.Item label={t('signature.updatedAt')}>{formatInZone(sig!.updatedAt, user?.timeZone)}</Descriptions.Item>}
        </Descriptions>
      )}
      <Upload
        accept=".png,.jpg,.jpeg,image/png,image/jpeg"
        showUploadList={false}
        beforeUpload={beforeUpload}
        customRequest={async ({ file, onSuccess, onError }) => {
          const r = await save.run({ file: file as File, query: {} });
          if (r) onSuccess?.(r);
          else onError?.(new Error('upload failed'));
        }}
      >
        <Button type={has ? 'default' : 'primary'} icon={uploading ? <LoadingOutlined /> : <UploadOutlined />} disabled={uploading || detail.isLoading}>
          {t(has ? 'signature.replace' : 'signature.upload')}
        </Button>
      </Upload>
      <div className="cw-me-hint">{t('signature.hint')}</div>
    </div>
  );
}
