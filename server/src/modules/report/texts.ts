
/**
 * The words of the PDF report and of its mail, in both languages of the console (the catalogue
 * of the report, as alarm/texts.ts is the alarms'). `{{name}}` is filled by `fill`.
 */
const zh = {
  title: '温湿度监测报告',
  groupTitle: '打印组：{{name}}',
  customer: '客户',
  carrier: '监测点',
  carrierType: '类型',
  zone: '监测区间',
  period: '报告期间',
  tz: '时区',
  group: '打印组',
  noZone: '未设置',
  chartTemp: '温度 (°C)',
  chartHum: '湿度 (%RH)',
  legendZone: '合格区间',
  legendSeries: '监测值',
  legendOut: '超限',
  noReadings: '此期间没有读数',
  statistics: '统计',
  measure: '项目',
  temp: '温度',
  hum: '湿度',
  min: '最低',
  max: '最高',
  avg: '平均 (时间加权)',
  stdDev: '标准差',
  mkt: '平均动力学温度 MKT (ΔH/R {{dh}} K)',
  passRate: '合格率',
  timeInZone: '区间内时长',
  excursions: '超限次数',
  excursionTime: '超限时长',
  offlineRate: '离线率',
  readings: '读数',
  exceptions: '异常记录及处理',
  noExceptions: '此期间没有异常记录',
  exStart: '开始',
  exEnd: '结束',
  exDuration: '持续',
  exCategory: '类别',
  exPeak: '峰值',
  exStatus: '状态',
  ongoing: '进行中',
  step: '{{time}}  {{action}}（{{meaning}}）  签名：{{name}} ({{account}})',
  stepReason: '原因：{{reason}}；措施：{{measures}}',
  stepComment: '说明：{{comment}}',
  noSteps: '尚未处理',
  signatures: '报告签名',
  unsigned: '本报告尚未签名。审核人：__________  批准人：__________',
  signedLine: '{{meaning}}：{{name}} ({{account}})  {{time}}',
  signComment: '意见：{{comment}}',
  contentHash: '报告内容 SHA-256：{{hash}}',
  hashNote: '每次签名后的文件 SHA-256 记录在系统日志中；可在“打印组 › 报告”中核验文件是否被改动。',
  footer: '第 {{page}} 页，共 {{pages}} 页',
  generated: '生成于 {{time}}，由 {{by}}',
  reportNo: '报告编号 {{id}}',
  mailSubject: '{{customer}} 温湿度报告 {{name}}（{{period}}）',
  mailBody: '您好：\n\n附件是“{{name}}”{{period}}的温湿度监测报告（PDF）。\n\n报告期间：{{start}} 至 {{end}}\n监测点：{{carriers}}\n\n此邮件由 Coldwatch 自动发送。',
  scheduleName: { daily: '日报', weekly: '周报', monthly: '月报' },
  action: { handle: '处理', close: '关闭', comment: '批注', correct: '更正' },
  meaning: { reviewed: '审核', approved: '批准', closed: '关闭' },
  status: { 0: '待处理', 1: '已处理', 2: '已关闭' } as Record<number, string>,
  category: {
    temp_high: '温度过高', temp_low: '温度过低', hum_high: '湿度过高', hum_low: '湿度过低', sensor_connect: '传感器离线', gateway_connect: '网关离线',
    gateway_blackout: '网关断电', display_connect: '显示屏离线', relay_connect: '继电器离线', low_battery: '电量低', retention: '滞留', reserved: '保留',
  } as Record<string, string>,
  carrierTypes: { 1: '培养箱', 2: '冰箱', 3: '冷藏车', 4: '冷库', 5: '仓库', 6: '门店', 7: '其他' } as Record<number, string>,
  duration: { d: '{{n}}天', h: '{{n}}小时', m: '{{n}}分', s: '{{n}}秒' },
};

type Texts = typeof zh;

const en: Texts = {
  title: 'Temperature and humidity report',
  groupTitle: 'Print group: {{name}}',
  customer: 'Customer',
  carrier: 'Carrier',
  carrierType: 'Type',
  zone: 'Zone',
  period: 'Period',
  tz: 'Time zone',
  group: 'Print group',
  noZone: 'not set',
  chartTemp: 'Temperature (°C)',
  chartHum: 'Humidity (%RH)',
  legendZone: 'Zone',
  legendSeries: 'Value',
  legendOut: 'Out of zone',
  noReadings: 'No readings in this period',
  statistics: 'Statistics',
  measure: 'Figure',
  temp: 'Temperature',
  hum: 'Humidity',
  min: 'Minimum',
  max: 'Maximum',
  avg: 'Average (time-weighted)',
  stdDev: 'Standard deviation',
  mkt: 'Mean kinetic temperature (ΔH/R {{dh}} K)',
  passRate: 'Pass rate',
  timeInZone: 'Time in zone',
  excursions: 'Excursions',
  excursionTime: 'Time out of zone',
  offlineRate: 'Offline rate',
  readings: 'Readings',
  exceptions: 'Exceptions and their handling',
  noExceptions: 'No exception in this period',
  exStart: 'Start',
  exEnd: 'End',
  exDuration: 'Duration',
  exCategory: 'Category',
  exPeak: 'Peak',
  exStatus: 'Status',
  ongoing: 'ongoing',
  step: '{{time}}  {{action}} ({{meaning}})  signed by {{name}} ({{account}})',
  stepReason: 'Reason: {{reason}}; measures: {{measures}}',
  stepComment: 'Comment: {{comment}}',
  noSteps: 'Not handled yet',
  signatures: 'Signatures of this report',
  unsigned: 'This report is not signed yet. Reviewed by: __________  Approved by: __________',
  signedLine: '{{meaning}}: {{name}} ({{account}})  {{time}}',
  signComment: 'Comment: {{comment}}',
  contentHash: 'Content SHA-256: {{hash}}',
  hashNote: "The SHA-256 of the file after each signature is recorded in the system log; Print groups › Reports checks whether a file was changed.",
  footer: 'Page {{page}} of {{pages}}',
  generated: 'Generated {{time}} by {{by}}',
  reportNo: 'Report no. {{id}}',
  mailSubject: '{{customer}} temperature report {{name}} ({{period}})',
  mailBody: 'Hello,\n\nAttached is the temperature and humidity report (PDF) of "{{name}}" for {{period}}.\n\nPeriod: {{start}} to {{end}}\nCarriers: {{carriers}}\n\nThis mail was sent by Coldwatch.',
  scheduleName: { daily: 'daily report', weekly: 'weekly report', monthly: 'monthly report' },
  action: { handle: 'Handled', close: 'Closed', comment: 'Comment', correct: 'Corrected' },
  meaning: { reviewed: 'reviewed', approved: 'approved', closed: 'closed' },
  status: { 0: 'Pending', 1: 'Processed', 2: 'Closed' },
  category: {
    temp_high: 'Temperature high', temp_low: 'Temperature low', hum_high: 'Humidity high', hum_low: 'Humidity low', sensor_connect: 'Sensor offline', gateway_connect: 'Gateway offline',
    gateway_blackout: 'Gateway power failure', display_connect: 'Display offline', relay_connect: 'Relay offline', low_battery: 'Low battery', retention: 'Retention', reserved: 'Reserved',
  },
  carrierTypes: { 1: 'Incubator', 2: 'Refrigerator', 3: 'Vehicle', 4: 'Cold store', 5: 'Warehouse', 6: 'Store', 7: 'Other' },
  duration: { d: '{{n}} d', h: '{{n}} h', m: '{{n}} min', s: '{{n}} s' },
};

/** The report's words: Chinese for zh-CN, English for any other reader. */
export const reportTexts = (locale: string): Texts => (locale === 'zh-CN' ? zh : en);

export const fill = (text: string, vars: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));

/** 93,784 s → "1天 2小时 3分" / "1 d 2 h 3 min": the largest three units that are not zero. */
export function fmtSeconds(seconds: number, locale: string): string {
  const d = reportTexts(locale).duration;
  const s = Math.max(0, Math.round(seconds));
  const parts: [keyof typeof d, number][] = [
    ['d', Math.floor(s / 86400)],
    ['h', Math.floor((s % 86400) / 3600)],
    ['m', Math.floor((s % 3600) / 60)],
    ['s', s % 60],
  ];
  const shown = parts.filter(([, n]) => n > 0).slice(0, 3);
  if (!shown.length) return fill(d.s, { n: 0 });
  return shown.map(([u, n]) => fill(d[u], { n })).join(locale === 'zh-CN' ? '' : ' ');
}

/** UTC ms → "2026-11-02 08:00" in the zone ('+08:00'). */
export function localTime(ms: number, tz: string, seconds = false): string {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(tz);
  const off = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
  const iso = new Date(ms + off).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, seconds ? 19 : 16)}`;
}
