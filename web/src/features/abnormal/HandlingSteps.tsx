import { Empty, Tag, Timeline, Typography } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { HandlingStep } from '@coldwatch/contract';
import { formatInZone } from '../../lib/format';

/** A step as both the detail and the /exDetail page receive it (the link's answer names no user or reason ids). */
export type ShownStep = Omit<HandlingStep, 'userId' | 'reasonId'>;

const ACTION_COLOR: Record<string, string> = { handle: 'blue', correct: 'orange', comment: 'default', close: 'green' };

/**
 * The signed steps of an exception, oldest first, each as it was signed (21 CFR Part 11 §11.50):
 * the signer's full name and account, the date and time in the customer's time zone, the
 * meaning of the signature, the signature image when the signer had one, and what the step
 * recorded.
 */
export function HandlingSteps({ steps, signatures, timeZone }: { steps: ShownStep[]; signatures: Record<string, string>; timeZone: string }) {
  const { t } = useTranslation('abnormal');
  if (!steps.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('detail.noSteps')} />;
  return (
    <Timeline
      items={steps.map((s) => {
        const image = s.signatureId !== null ? signatures[String(s.signatureId)] : undefined;
        return {
          key: s.id,
          color: ACTION_COLOR[s.action] ?? 'gray',
          content: (
            <div data-testid="handling-step" data-action={s.action} style={{ lineHeight: 1.6 }}>
              <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 6 }}>
                <Tag color={ACTION_COLOR[s.action]} style={{ marginInlineEnd: 0 }}>
                  {t(`stepAction.${s.action}`)}
                </Tag>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t(`status.${s.statusBefore}`)} → {t(`status.${s.statusAfter}`)}
                </Typography.Text>
              </div>
              {s.reason && <Field label={t('detail.reason')} value={s.reason} />}
              {s.measures && <Field label={t('detail.measures')} value={s.measures} />}
              {s.judgement && <Field label={t('detail.judgement')} value={t(`judgement.${s.judgement}`)} />}
              {s.excluded !== null && s.action !== 'close' && s.action !== 'comment' && (
                <Field label={t('detail.excluded')} value={s.excluded ? t('detail.excludedYes', { why: s.excludedWhy }) : t('detail.excludedNo')} />
              )}
              {s.comment && <Field label={s.action === 'correct' ? t('handle.correctWhy') : t('detail.comment')} value={s.comment} />}
              <div data-testid="step-signature" style={{ marginTop: 6, padding: '6px 10px', background: '#f6f9ff', border: '1px solid #d6e4ff', borderRadius: 6, display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap' }}>
                <SafetyCertificateOutlined style={{ color: '#1677ff' }} />
                <div style={{ flex: 1, minWidth: 200 }}>
                  <div>
                    <b data-testid="signer">{s.userName}</b>
                    <Typography.Text type="secondary"> ({s.userAccount})</Typography.Text>
                    <Tag color="geekblue" style={{ marginInlineStart: 8 }} data-testid="meaning">
                      {t(`meaning.${s.meaning}`)}
                    </Tag>
                  </div>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="signed-at">
                    {t('detail.signedAt', { time: formatInZone(s.signedAt, timeZone), tz: timeZone })}
                  </Typography.Text>
                </div>
                {image && <img src={image} alt={t('sign.image', { name: s.userName })} data-testid="signature-image" style={{ maxHeight: 48, maxWidth: 160, background: '#fff', border: '1px solid #eee', borderRadius: 4 }} />}
              </div>
            </div>
          ),
        };
      })}
    />
  );
}

function Field({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Typography.Text type="secondary">{label}: </Typography.Text>
      <span style={{ whiteSpace: 'pre-wrap' }}>{value}</span>
    </div>
  );
}
