/**
 * /count/guidance (menu analGuidance): the GSP checks of the caller's customers (docs/compliance.md).
 * One card per check with its rule and its state; below, the chosen check's findings, each with
 * the record it is about and the change that clears it, made here in the record's own dialog.
 */
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert, Button, Card, Col, Row, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { BookOutlined, CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled, ReloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  carrierApi,
  COMPLIANCE_CHECKS,
  complianceApi,
  sensorApi,
  type CarrierRow,
  type ComplianceCheck,
  type ComplianceCheckSummary,
  type ComplianceFinding,
  type SensorRow,
} from '@coldwatch/contract';
import { call, keyOf } from '../../api/call';
import { useCall } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { errorMessage } from '../../app/errors';
import { PageCard, PagedTable, useApiErrorToast, useSceneTree } from '../../ui';
import { SensorDialog } from '../device/SensorDialog';
import { ConfigDialog } from '../device/ConfigDialog';
import { CarrierDialog } from '../carrier/CarrierDialog';
import { describe, fixesOf, placeOf, type Fix } from './findings';
import { GuidanceAnalysis } from '../statistic/GuidanceAnalysis';

const SEVERITY_COLOR = { fail: 'red', warn: 'orange' } as const;

export default function CompliancePage() {
  const { t } = useTranslation('compliance');
  const { userType, can } = useAuth();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const toastError = useApiErrorToast();
  const many = seesManyCustomers(userType);
  const [customerId, setCustomerId] = useState<number | undefined>();
  const [check, setCheck] = useState<ComplianceCheck>('interval');
  const [sensor, setSensor] = useState<SensorRow | null>(null);
  const [configuring, setConfiguring] = useState<SensorRow[] | null>(null);
  const [carrier, setCarrier] = useState<CarrierRow | null>(null);
  const summary = useCall(complianceApi.summary, { query: { customerId } });
  const tree = useSceneTree();
  const customers = useMemo(
    () => (tree.data ?? []).filter((n) => n.nodeType === 'customer' && n.scope_id !== null).map((n) => ({ value: n.scope_id as number, label: n.label })),
    [tree.data],
  );

  // A fix changes what every check sees: both the cards and the list are asked again.
  const recheck = () => {
    void qc.invalidateQueries({ queryKey: keyOf(complianceApi.summary) });
    void qc.invalidateQueries({ queryKey: keyOf(complianceApi.page) });
  };

  const fix = async (how: Fix, f: ComplianceFinding) => {
    try {
      if (how === 'customer') return void navigate('/sys/customer');
      if (how === 'backups') return void navigate('/sys/backup');
      if (how === 'editCarrier') return setCarrier(await call(carrierApi.detail, { query: { id: f.carrierId } }));
      const s = await call(sensorApi.detail, { query: { id: f.sensorId! } });
      if (how === 'configure') setConfiguring([s]);
      else setSensor(s);
    } catch (e) {
      toastError(e);
    }
  };

  const columns = useMemo<TableColumnsType<ComplianceFinding>>(
    () => [
      { title: t('col.severity'), dataIndex: 'severity', width: 100, render: (s: ComplianceFinding['severity']) => <Tag color={SEVERITY_COLOR[s]}>{t(`severity.${s}`)}</Tag> },
      ...(many ? [{ title: t('col.customer'), dataIndex: 'customerName', width: 140, ellipsis: true }] : []),
      {
        title: t('col.subject'),
        key: 'subject',
        width: 200,
        render: (_: unknown, f: ComplianceFinding) => (
          <Space direction="vertical" size={0}>
            {f.check === 'backup' && !can('viewParam') ? <Typography.Text>{t('subject.console')}</Typography.Text> : <Link to={placeOf(f)}>{f.devNo ?? f.carrierName ?? t('subject.console')}</Link>}
            {f.devNo && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{f.carrierName}</Typography.Text>}
          </Space>
        ),
      },
      {
        title: t('col.finding'),
        key: 'finding',
        render: (_: unknown, f: ComplianceFinding) => {
          const { text, notes } = describe(t, f);
          return (
            <Space direction="vertical" size={0}>
              <Typography.Text>{text}</Typography.Text>
              {notes.map((n) => (
                <Typography.Text key={n} type="secondary" style={{ fontSize: 12 }}>
                  {n}
                </Typography.Text>
              ))}
            </Space>
          );
        },
      },
      { title: t('col.rule'), dataIndex: 'rule', width: 170, render: (r: ComplianceFinding['rule']) => <Tag>{t(`rule.${r}`)}</Tag> },
      {
        title: t('col.fix'),
        key: 'fix',
        width: 200,
        render: (_: unknown, f: ComplianceFinding) => {
          const fixes = fixesOf(f, (code) => can(code));
          if (f.check === 'backup' && fixes.length === 0)
            return (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('why.backupPlatform')}
              </Typography.Text>
            );
          return (
            <Space wrap size={4}>
              {fixes.map((how) => (
                <Button key={how} size="small" type={how === 'customer' ? 'link' : 'default'} onClick={() => void fix(how, f)}>
                  {t(`action.${how}`)}
                </Button>
              ))}
            </Space>
          );
        },
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, many, can],
  );

  const summaryOf = (c: ComplianceCheck) => summary.data?.checks.find((s) => s.check === c);

  return (
    <PageCard
      title={t('title')}
      extra={
        <Space>
          {many && customers.length > 1 && (
            <Select allowClear style={{ width: 220 }} placeholder={t('allCustomers')} aria-label={t('col.customer')} options={customers} value={customerId} onChange={setCustomerId} />
          )}
          <Button icon={<ReloadOutlined />} onClick={recheck}>
            {t('reload')}
          </Button>
        </Space>
      }
    >
      <GuidanceAnalysis />
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      {summary.isError && <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('loadFailed')} description={errorMessage(summary.error, t)} />}
      <Row gutter={[12, 12]} style={{ marginBottom: 16 }}>
        {COMPLIANCE_CHECKS.map((c) => (
          <Col key={c} xs={24} md={12} xl={6}>
            <CheckCard check={c} summary={summaryOf(c)} selected={c === check} onSelect={() => setCheck(c)} />
          </Col>
        ))}
      </Row>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t(`check.${check}.name`)}
      </Typography.Title>
      <PagedTable
        className="cw-compliance-findings"
        route={complianceApi.page}
        params={{ check, customerId }}
        size="middle"
        rowKey="key"
        columns={columns}
        scroll={{ x: 1000 }}
        locale={{ emptyText: t('empty') }}
      />
      <SensorDialog target={sensor} onClose={() => setSensor(null)} onDone={recheck} />
      <ConfigDialog sensors={configuring} onClose={() => setConfiguring(null)} onDone={recheck} />
      {carrier && <CarrierDialog target={carrier} onClose={() => setCarrier(null)} onDone={recheck} />}
    </PageCard>
  );
}

/** One check: its name, the rule it comes from, what it asks, and how the customer stands. */
function CheckCard({ check, summary, selected, onSelect }: { check: ComplianceCheck; summary?: ComplianceCheckSummary; selected: boolean; onSelect: () => void }) {
  const { t } = useTranslation('compliance');
  const state = !summary ? null : summary.fail > 0 ? 'fail' : summary.warn > 0 ? 'warn' : 'pass';
  const icon = state === 'fail' ? <CloseCircleFilled style={{ color: '#cf1322' }} /> : state === 'warn' ? <ExclamationCircleFilled style={{ color: '#d46b08' }} /> : state === 'pass' ? <CheckCircleFilled style={{ color: '#389e0d' }} /> : null;
  return (
    <Card
      size="small"
      hoverable
      role="button"
      tabIndex={0}
      aria-pressed={selected}
      data-check={check}
      data-state={state ?? 'loading'}
      onClick={onSelect}
      onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && onSelect()}
      style={{ height: '100%', borderColor: selected ? '#1677ff' : undefined, boxShadow: selected ? '0 0 0 1px #1677ff' : undefined }}
    >
      <Space direction="vertical" size={4} style={{ width: '100%' }}>
        <Typography.Text strong>{t(`check.${check}.name`)}</Typography.Text>
        <Typography.Text style={{ fontSize: 12, color: '#1677ff' }}>
          <BookOutlined style={{ marginInlineEnd: 4 }} />
          {t(`check.${check}.ref`)}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t(`check.${check}.what`)}
        </Typography.Text>
        {summary && (
          <Space wrap size={[12, 0]}>
            <Space size={6}>
              {icon}
              <Typography.Text strong>
                {state === 'pass'
                  ? t('status.pass')
                  : [summary.fail > 0 && t('status.fail', { count: summary.fail }), summary.warn > 0 && t('status.warn', { count: summary.warn })].filter(Boolean).join(' · ')}
              </Typography.Text>
            </Space>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {check === 'backup' ? t('status.console') : t(check === 'smsReach' ? 'status.carriers' : 'status.sensors', { count: summary.checked })}
            </Typography.Text>
          </Space>
        )}
        {summary && summary.unrecorded > 0 && (
          <Typography.Text type="warning" style={{ fontSize: 12 }}>
            {t('status.unrecorded', { count: summary.unrecorded })}
          </Typography.Text>
        )}
      </Space>
    </Card>
  );
}
