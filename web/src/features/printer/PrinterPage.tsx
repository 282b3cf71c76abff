/**
 * /arch/printer (spec §2, §3 Print group, §7 printGroup/*, printer/info; docs/reports.md): the
 * customer's print groups (named groups of carriers printed as one PDF report, optionally on a
 * daily, weekly or monthly schedule e-mailed to chosen contacts), and the reports made, with
 * their download, their signing after review and the check of a file against its SHA-256.
 */
import { useState } from 'react';
import { Alert, App, Button, Space, Table, Tabs, Tag, Typography, Upload } from 'antd';
import { FileProtectOutlined, PrinterOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { printGroupApi, reportApi, type PrintGroupRow, type ReportRow, type ReportVerifyResult } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction, useCall, useUpload } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { errorMessage } from '../../app/errors';
import { formatInZone } from '../../lib/format';
import { AddButton, linkActionsColumn, PageCard, PagedTable, useApiErrorToast } from '../../ui';
import { GroupDialog } from './GroupDialog';
import { PrintDialog } from './PrintDialog';
import { ReportSignDialog } from './ReportSignDialog';
import { fetchReport } from './reportFile';

const STATUS_COLORS = { generating: 'processing', generated: 'success', failed: 'error' } as const;

function GroupsTab() {
  const { t } = useTranslation('printer');
  const { can, user } = useAuth();
  const { message } = App.useApp();
  const [editing, setEditing] = useState<PrintGroupRow | 'new' | null>(null);
  const [printing, setPrinting] = useState<PrintGroupRow | null>(null);
  const groups = useCall(printGroupApi.list, { query: {} });
  const info = useCall(printGroupApi.printerInfo);
  const del = useAction(printGroupApi.del, { success: t('msg.deleted'), invalidates: [printGroupApi.list] });
  const tz = user?.timeZone;
  const send = useAction(printGroupApi.send, {
    success: false,
    invalidates: [printGroupApi.list, reportApi.page],
    onDone: (r) => {
      const period = { start: formatInZone(r.startTs, tz, 'YYYY-MM-DD'), end: formatInZone(r.endTs - 1, tz, 'YYYY-MM-DD') };
      void message.success(r.created ? t('msg.sending', period) : t('msg.alreadySent', period));
    },
  });
  const columns = [
    { title: t('col.name'), dataIndex: 'groupName', width: 180, render: (n: string) => <Typography.Text strong>{n}</Typography.Text> },
    { title: t('col.customer'), dataIndex: 'customerName', width: 140, hidden: !seesManyCustomers(user?.userType) },
    {
      title: t('col.carriers'),
      dataIndex: 'carriers',
      render: (cs: PrintGroupRow['carriers']) => (
        <Space size={[4, 4]} wrap>
          {cs.map((c) => (
            <Tag key={c.id}>{c.name}</Tag>
          ))}
        </Space>
      ),
    },
    {
      title: t('col.schedule'),
      dataIndex: 'schedule',
      width: 160,
      render: (s: PrintGroupRow['schedule'], r: PrintGroupRow) => (
        <Space direction="vertical" size={0}>
          <Tag color={s === 'none' ? undefined : 'blue'}>{t(`schedule.${s}`)}</Tag>
          {s !== 'none' && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{r.contacts.map((c) => c.name).join('、')}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: t('col.lastReport'),
      dataIndex: 'lastReport',
      width: 210,
      render: (l: PrintGroupRow['lastReport']) =>
        l ? (
          <Space direction="vertical" size={0}>
            <span>
              {formatInZone(l.startTs, tz, 'YYYY-MM-DD')} — {formatInZone(l.endTs - 1, tz, 'YYYY-MM-DD')}
            </span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t(`kind.${l.kind}`)} · <Tag color={STATUS_COLORS[l.status]}>{t(`status.${l.status}`)}</Tag>
            </Typography.Text>
          </Space>
        ) : (
          '--'
        ),
    },
    linkActionsColumn<PrintGroupRow>(
      {
        title: t('col.actions'),
        width: 230,
        items: [
          { key: 'print', perm: 'viewStatistic', label: t('action.print'), onClick: setPrinting },
          { key: 'edit', perm: 'editStatistic', label: t('action.edit'), onClick: setEditing },
          {
            key: 'send',
            perm: 'editStatistic',
            label: t('action.send'),
            when: (r) => r.schedule !== 'none',
            confirm: (r) => ({ title: t('confirm.send', { name: r.groupName, to: r.contacts.map((c) => c.name).join('、') }), okText: t('form.ok'), cancelText: t('form.cancel') }),
            onClick: (r) => send.run({ query: { id: r.id } }),
          },
          {
            key: 'delete',
            perm: 'removeStatistic',
            label: t('action.delete'),
            danger: true,
            confirm: (r) => ({ title: t('confirm.delete', { name: r.groupName }), okText: t('form.ok'), cancelText: t('form.cancel'), danger: true }),
            onClick: (r) => del.run({ query: { ids: idList([r.id]) } }),
          },
        ],
      },
      can,
    ),
  ].filter((c) => !('hidden' in c && c.hidden));
  return (
    <>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 12, gap: 12 }}>
        <Typography.Text type="secondary">
          {info.data ? t('printerInfo', { paper: info.data.paper, font: info.data.font, days: info.data.maxDays, carriers: info.data.maxCarriers }) : ' '}
        </Typography.Text>
        <AddButton perm="newStatistic" onClick={() => setEditing('new')}>
          {t('action.add')}
        </AddButton>
      </div>
      {groups.error && <Alert type="error" showIcon title={errorMessage(groups.error, t)} style={{ marginBottom: 12 }} />}
      <Table<PrintGroupRow> rowKey="id" size="small" loading={groups.isLoading} columns={columns} dataSource={groups.data ?? []} pagination={false} locale={{ emptyText: t('empty') }} data-testid="print-groups" />
      <GroupDialog target={editing} onClose={() => setEditing(null)} />
      <PrintDialog group={printing} onClose={() => setPrinting(null)} />
    </>
  );
}

function ReportsTab() {
  const { t } = useTranslation('printer');
  const { can, user } = useAuth();
  const toastError = useApiErrorToast();
  const { message } = App.useApp();
  const [signing, setSigning] = useState<ReportRow | null>(null);
  const [checked, setChecked] = useState<ReportVerifyResult | null>(null);
  const verify = useUpload(reportApi.verify, { success: false, onDone: (r) => setChecked(r) });
  const tz = user?.timeZone;
  const download = async (r: ReportRow) => {
    try {
      const f = await fetchReport('GET', `${reportApi.download.path}?id=${r.id}`);
      void message.success(t('print.done', { name: f.name }));
    } catch (e) {
      toastError(e);
    }
  };
  const columns = [
    { title: t('col.no'), dataIndex: 'id', width: 70 },
    {
      title: t('col.subject'),
      dataIndex: 'groupName',
      render: (g: string, r: ReportRow) => (
        <Space direction="vertical" size={0}>
          <span>{g || r.carrierNames.join('、')}</span>
          {g && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{r.carrierNames.join('、')}</Typography.Text>}
        </Space>
      ),
    },
    { title: t('col.period'), dataIndex: 'startTs', width: 200, render: (s: number, r: ReportRow) => `${formatInZone(s, tz, 'YYYY-MM-DD')} — ${formatInZone(r.endTs - 1, tz, 'YYYY-MM-DD')}` },
    { title: t('col.kind'), dataIndex: 'kind', width: 110, render: (k: ReportRow['kind'], r: ReportRow) => (r.period ? t(`schedule.${r.period}`) : t(`kind.${k}`)) },
    { title: t('col.status'), dataIndex: 'status', width: 90, render: (s: ReportRow['status'], r: ReportRow) => <Tag color={STATUS_COLORS[s]} title={r.error}>{t(`status.${s}`)}</Tag> },
    {
      title: t('col.signatures'),
      dataIndex: 'signatures',
      width: 230,
      render: (sigs: ReportRow['signatures']) =>
        sigs.length ? (
          <Space direction="vertical" size={0}>
            {sigs.map((s) => (
              <span key={s.id}>
                <SafetyCertificateOutlined style={{ color: '#52c41a' }} /> {t(`meaning.${s.meaning}`)} · {s.userName} · {formatInZone(s.signedAt, tz, 'MM-DD HH:mm')}
              </span>
            ))}
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('unsigned')}</Typography.Text>
        ),
    },
    { title: t('col.createdAt'), dataIndex: 'createdAt', width: 150, render: (v: number, r: ReportRow) => `${formatInZone(v, tz, 'YYYY-MM-DD HH:mm')} ${r.createdBy}` },
    linkActionsColumn<ReportRow>(
      {
        title: t('col.actions'),
        width: 130,
        items: [
          { key: 'download', perm: 'viewStatistic', label: t('action.download'), when: (r) => r.status === 'generated', onClick: (r) => void download(r) },
          { key: 'sign', perm: 'editStatistic', label: t('action.sign'), when: (r) => r.status === 'generated', onClick: setSigning },
        ],
      },
      can,
    ),
  ];
  return (
    <>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 12, gap: 12 }}>
        <Typography.Text type="secondary">{t('reportsHint')}</Typography.Text>
        <Upload
          accept="application/pdf,.pdf"
          showUploadList={false}
          beforeUpload={(file) => {
            setChecked(null);
            void verify.run({ file });
            return false;
          }}
        >
          <Button icon={<FileProtectOutlined />} loading={verify.busy}>
            {t('action.verify')}
          </Button>
        </Upload>
      </div>
      {checked && (
        <Alert
          style={{ marginBottom: 12 }}
          showIcon
          closable
          onClose={() => setChecked(null)}
          type={checked.genuine ? (checked.superseded ? 'warning' : 'success') : 'error'}
          title={checked.genuine ? (checked.superseded ? t('verify.superseded', { id: checked.reportId }) : t('verify.genuine', { id: checked.reportId })) : t('verify.changed')}
          description={
            <span data-testid="verify-result">
              {checked.title ? `${checked.title} · ` : ''}SHA-256 {checked.sha256}
              {checked.signatures.length ? ` · ${checked.signatures.map((s) => `${t(`meaning.${s.meaning}`)} ${s.userName}`).join('、')}` : ''}
            </span>
          }
        />
      )}
      <PagedTable route={reportApi.page} rowKey="id" size="small" columns={columns} locale={{ emptyText: t('noReports') }} scroll={{ x: 1100 }} />
      <ReportSignDialog report={signing} onClose={() => setSigning(null)} />
    </>
  );
}

export default function PrinterPage() {
  const { t } = useTranslation('printer');
  return (
    <PageCard title={<><PrinterOutlined /> {t('title')}</>}>
      <Tabs destroyOnHidden items={[{ key: 'groups', label: t('tab.groups'), children: <GroupsTab /> }, { key: 'reports', label: t('tab.reports'), children: <ReportsTab /> }]} />
    </PageCard>
  );
}
