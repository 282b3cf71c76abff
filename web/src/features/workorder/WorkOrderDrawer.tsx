import { useState } from 'react';
import { Button, Descriptions, Drawer, Form, Image, Input, Modal, Rate, Space, Spin, Tag, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { workOrderApi } from '@coldwatch/contract';
import { useAction, useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { formatInZone } from '../../lib/format';
import { NOTE_REQUIRED, STATUS_COLOR, STEP_PERM, offeredSteps, type StepAction } from './labels';

/** One work order: its facts, its steps (who, when, what they said), its pictures, and the steps the caller's side may take now. */
export function WorkOrderDrawer({ id, onClose, onChanged }: { id: number | null; onClose: () => void; onChanged: () => void }) {
  const { t } = useTranslation('workOrder');
  const { can, user } = useAuth();
  const q = useCall(workOrderApi.detail, { query: { id: id ?? 0 } }, { enabled: id !== null });
  const d = q.data;
  const [acting, setActing] = useState<StepAction | null>(null);
  const [form] = Form.useForm<{ note?: string; rating?: number }>();
  const done = () => {
    setActing(null);
    void q.refetch();
    onChanged();
  };
  // The open step's own route (its path and function code), chosen as the step's dialog opens.
  const step = useAction(workOrderApi[acting ?? 'accept'] as typeof workOrderApi.accept, { success: t('msg.stepDone'), onDone: done });
  const at = (ms: number) => formatInZone(ms, user?.timeZone, 'YYYY-MM-DD HH:mm');

  const take = async () => {
    if (!d || !acting) return;
    const v = await form.validateFields();
    // Every step's route takes the same body; an evaluation adds its rating.
    await step.run({ body: { id: d.id, note: v.note ?? '', ...(acting === 'evaluate' ? { rating: v.rating } : {}) } });
  };
  const offered = d ? offeredSteps(d).filter((a) => can(STEP_PERM(a))) : [];

  return (
    <Drawer open={id !== null} onClose={onClose} title={d ? t('detail.title', { id: d.id }) : t('detail.loading')} size="large" destroyOnHidden>
      {!d ? (
        <Spin />
      ) : (
        <>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('col.status')}>
              <Tag color={STATUS_COLOR[d.status]}>{t(`status.${d.status}`)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('col.customer')}>{d.customerName}</Descriptions.Item>
            <Descriptions.Item label={t('col.subject')}>
              {t(`subject.${d.subjectKind}`)}: {d.subjectName}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.carrier')}>{d.carrierName ?? '--'}</Descriptions.Item>
            <Descriptions.Item label={t('col.category')}>{t(`category.${d.category}`)}</Descriptions.Item>
            <Descriptions.Item label={t('col.description')}>
              <Typography.Paragraph style={{ marginBottom: 0, whiteSpace: 'pre-wrap' }}>{d.description}</Typography.Paragraph>
            </Descriptions.Item>
            {d.rating !== null && (
              <Descriptions.Item label={t('col.rating')}>
                <Rate disabled value={d.rating} />
              </Descriptions.Item>
            )}
          </Descriptions>
          {offered.length > 0 && (
            <Space wrap style={{ margin: '16px 0' }} data-testid="work-order-steps">
              {offered.map((a) => (
                <Button key={a} type={a === 'reject' || a === 'cancel' ? 'default' : 'primary'} danger={a === 'reject' || a === 'cancel'} onClick={() => (form.resetFields(), setActing(a))}>
                  {t(`action.${a}`)}
                </Button>
              ))}
            </Space>
          )}
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('detail.steps')}
          </Typography.Title>
          <Timeline
            items={d.steps.map((s) => ({
              color: s.side === 'provider' ? 'blue' : 'green',
              content: (
                <div>
                  <b>{t(`done.${s.action}`)}</b> · {s.userName} ({t(`side.${s.side}`)}) · {at(s.at)}
                  {s.rating !== null && <Rate disabled value={s.rating} style={{ fontSize: 12, marginLeft: 8 }} />}
                  {s.note && <div style={{ color: '#595959', whiteSpace: 'pre-wrap' }}>{s.note}</div>}
                </div>
              ),
            }))}
          />
          {d.pictures.length > 0 && (
            <>
              <Typography.Title level={5}>{t('detail.pictures')}</Typography.Title>
              <Image.PreviewGroup>
                <Space wrap>
                  {d.pictures.map((p) => (
                    <Image key={p.id} width={96} height={96} style={{ objectFit: 'cover' }} src={`/service/workOrder/image?id=${p.id}`} alt={p.userName} />
                  ))}
                </Space>
              </Image.PreviewGroup>
            </>
          )}
        </>
      )}
      <Modal open={acting !== null} title={acting ? t(`action.${acting}`) : ''} okText={t('confirm')} cancelText={t('cancel')} onOk={take} onCancel={() => setActing(null)} confirmLoading={step.busy} destroyOnHidden>
        <Form form={form} layout="vertical" name="workOrderStep">
          {acting === 'evaluate' && (
            <Form.Item name="rating" label={t('col.rating')} rules={[{ required: true, message: t('step.ratingRequired') }]}>
              <Rate />
            </Form.Item>
          )}
          <Form.Item
            name="note"
            label={t(`step.note.${acting ?? 'accept'}`)}
            rules={acting && NOTE_REQUIRED.includes(acting) ? [{ required: true, whitespace: true, message: t('step.noteRequired') }] : []}
          >
            <Input.TextArea rows={3} maxLength={500} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </Drawer>
  );
}
