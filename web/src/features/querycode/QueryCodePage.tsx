/**
 * /code/findCode (spec §2, §7 find/code/generate; docs/workorders.md "Query codes"): the caller's
 * query codes with their sensors, period, expiry (7 days, §9) and state; a new code for chosen
 * sensors (optionally a period) shown as its link and QR code; revoking one ends it at once.
 */
import { useRef, useState } from 'react';
import { Button, DatePicker, Form, Input, Modal, QRCode, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { QUERY_CODE_STATUS, queryCodeApi, type QueryCodeRow } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { AddButton, PageCard, PagedTable, SearchBar, linkActionsColumn, tableColumns, type ListColumn, type PagedTableRef, type SearchField } from '../../ui';
import { formatInZone } from '../../lib/format';
import { SensorSelect } from './SensorSelect';

const STATUS_COLOR = ['success', 'default', 'error'];

interface Values {
  sensorIds: number[];
  period?: [{ valueOf(): number }, { valueOf(): number }];
  note?: string;
}

export default function QueryCodePage() {
  const { t } = useTranslation('queryCode');
  const { can, user } = useAuth();
  const table = useRef<PagedTableRef>(null);
  const [status, setStatus] = useState<string | undefined>();
  const [making, setMaking] = useState(false);
  const [made, setMade] = useState<{ url: string; expiresAt: number } | null>(null);
  const [form] = Form.useForm<Values>();
  const reload = () => table.current?.reload();
  const at = (ms: number) => formatInZone(ms, user?.timeZone, 'YYYY-MM-DD HH:mm');
  const generate = useAction(queryCodeApi.generate, {
    success: t('msg.made'),
    onDone: (r) => {
      setMaking(false);
      setMade(r);
      reload();
    },
  });
  const revoke = useAction(queryCodeApi.revoke, { success: t('msg.revoked'), onDone: reload });
  const submit = async () => {
    const v = await form.validateFields();
    const period = v.period ? { startTime: v.period[0].valueOf(), endTime: v.period[1].valueOf() } : {};
    await generate.run({ body: { sensorIds: v.sensorIds, note: v.note ?? '', ...period } });
  };
  const copy = (url: string) => void navigator.clipboard?.writeText(url);

  const columns: ListColumn<QueryCodeRow>[] = [
    { title: t('col.customer'), dataIndex: 'customerName', width: 150, hidden: !seesManyCustomers(user?.userType) },
    { title: t('col.note'), dataIndex: 'note', width: 160, render: (v: string) => v || '--' },
    {
      title: t('col.sensors'),
      key: 'sensors',
      width: 260,
      render: (_, r) => (
        <Space size={[4, 4]} wrap>
          {r.sensors.map((s) => (
            <Tag key={s.devNo}>{s.carrierName ? `${s.devNo} · ${s.carrierName}` : s.devNo}</Tag>
          ))}
        </Space>
      ),
    },
    { title: t('col.period'), key: 'period', width: 290, render: (_, r) => `${at(r.startTime)} ~ ${at(r.endTime)}` },
    { title: t('col.expiresAt'), dataIndex: 'expiresAt', width: 150, render: (v: number) => at(v) },
    { title: t('col.status'), dataIndex: 'status', width: 90, render: (v: number) => <Tag color={STATUS_COLOR[v]}>{t(`status.${v}`)}</Tag> },
    { title: t('col.createdBy'), dataIndex: 'createdBy', width: 110 },
    linkActionsColumn<QueryCodeRow>(
      {
        title: t('col.actions'),
        width: 190,
        items: [
          { key: 'show', perm: 'viewHistory', when: (r) => !!r.url, label: t('action.show'), onClick: (r) => setMade({ url: r.url!, expiresAt: r.expiresAt }) },
          {
            key: 'revoke',
            perm: 'removeHistory',
            when: (r) => r.status === QUERY_CODE_STATUS.active,
            label: t('action.revoke'),
            danger: true,
            confirm: () => ({ title: t('confirm.revoke'), description: t('confirm.revokeText'), okText: t('confirm.ok'), cancelText: t('cancel'), danger: true }),
            onClick: (r) => revoke.run({ query: { ids: idList([r.id]) } }),
          },
        ],
      },
      can,
    ),
  ];
  const fields: SearchField[] = [{ name: 'status', type: 'select', label: t('col.status'), width: 120, options: [0, 1, 2].map((s) => ({ value: String(s), label: t(`status.${s}`) })) }];
  return (
    <PageCard
      title={t('title')}
      extra={
        <AddButton perm="newHistory" onClick={() => (form.resetFields(), setMaking(true))}>
          {t('make.title')}
        </AddButton>
      }
    >
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <SearchBar fields={fields} onSearch={(v) => setStatus(v.status as string | undefined)} />
      <PagedTable ref={table} route={queryCodeApi.page} params={{ status }} size="small" rowKey="id" columns={tableColumns(columns)} locale={{ emptyText: t('empty') }} scroll={{ x: 1400 }} />
      <Modal open={making} title={t('make.title')} okText={t('make.ok')} cancelText={t('cancel')} onOk={submit} onCancel={() => setMaking(false)} confirmLoading={generate.busy} destroyOnHidden>
        <Form form={form} layout="vertical" name="queryCodeForm">
          <Form.Item name="sensorIds" label={t('make.sensors')} rules={[{ required: true, message: t('make.sensorsRequired') }]}>
            <SensorSelect open={making} mode="multiple" maxCount={50} />
          </Form.Item>
          <Form.Item name="period" label={t('make.period')} extra={t('make.periodHint')}>
            <DatePicker.RangePicker showTime style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="note" label={t('col.note')} rules={[{ max: 100 }]}>
            <Input maxLength={100} placeholder={t('make.noteHint')} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal open={!!made} title={t('made.title')} footer={null} onCancel={() => setMade(null)} destroyOnHidden>
        {made && (
          <Space direction="vertical" align="center" style={{ width: '100%' }}>
            <QRCode value={made.url} size={200} />
            <Typography.Paragraph copyable={{ text: made.url }} style={{ wordBreak: 'break-all', textAlign: 'center' }} data-testid="query-code-url">
              {made.url}
            </Typography.Paragraph>
            <Typography.Text type="secondary">{t('made.expires', { time: at(made.expiresAt) })}</Typography.Text>
            <Button onClick={() => copy(made.url)}>{t('made.copy')}</Button>
          </Space>
        )}
      </Modal>
    </PageCard>
  );
}
