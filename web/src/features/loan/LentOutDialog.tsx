/**
 * The owner's view of its lent sensors (GET /service/sensor/lentOut): which are away, with whom,
 * until when. They are the borrower's while away, so the sensor list no longer shows them.
 */
import { Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { loanApi } from '@coldwatch/contract';
import { useAuth } from '../../app/auth';
import { PagedTable } from '../../ui';
import { loanColumns } from './loanColumns';

export function LentOutDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('loan');
  const { user } = useAuth();
  // The owner is the caller: its own name is no column here.
  const columns = loanColumns(t, user?.timeZone).filter((c) => (c as { dataIndex?: string }).dataIndex !== 'customerName');
  return (
    <Modal open={open} title={t('lentOutTitle')} footer={null} onCancel={onClose} width={1100} style={{ top: '8vh' }} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('lentOutIntro')}</Typography.Paragraph>
      <PagedTable route={loanApi.lentOut} params={{}} size="small" rowKey="id" columns={columns} locale={{ emptyText: t('emptyLentOut') }} scroll={{ x: 1180 }} />
    </Modal>
  );
}
