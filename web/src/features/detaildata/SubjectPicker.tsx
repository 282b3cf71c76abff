/**
 * What the detail data is about: carriers (their value in their sample mode) or sensors, up to
 * DETAIL_MAX_SUBJECTS of one kind, searched on the server by name or number.
 */
import { useMemo, useState } from 'react';
import { Segmented, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { carrierApi, DETAIL_MAX_SUBJECTS, sensorApi } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';

export type SubjectKind = 'carrier' | 'sensor';

interface Props {
  kind: SubjectKind;
  onKind: (k: SubjectKind) => void;
  /** Carrier ids as strings, or sensor numbers. */
  value: string[];
  onChange: (v: string[]) => void;
  /** Labels of the chosen subjects as the last answer named them (a choice from a link is not among the searched options). */
  known: { value: string; label: string }[];
}

export function SubjectPicker({ kind, onKind, value, onChange, known }: Props) {
  const { t } = useTranslation('detailData');
  const [search, setSearch] = useState('');
  const carriers = useCall(carrierApi.page, { query: { iDisplayLength: 100, name: search || undefined } }, { enabled: kind === 'carrier' });
  const sensors = useCall(sensorApi.page, { query: { iDisplayLength: 100, devNo: search || undefined, kind: 'sensor' } }, { enabled: kind === 'sensor' });
  const options = useMemo(() => {
    const found =
      kind === 'carrier'
        ? (carriers.data?.rows ?? []).map((c) => ({ value: String(c.id), label: `${c.name} · ${c.sceneLabel}` }))
        : (sensors.data?.rows ?? []).map((s) => ({ value: s.devNo, label: s.carrierName ? `${s.devNo} · ${s.carrierName}` : s.devNo }));
    return [...known.filter((k) => value.includes(k.value) && !found.some((f) => f.value === k.value)), ...found];
  }, [kind, carriers.data, sensors.data, known, value]);
  return (
    <>
      <Segmented<SubjectKind>
        value={kind}
        onChange={(k) => {
          setSearch('');
          onKind(k);
        }}
        options={[
          { value: 'carrier', label: t('kind.carrier') },
          { value: 'sensor', label: t('kind.sensor') },
        ]}
      />
      <Select
        mode="multiple"
        className="cw-dd-subjects"
        value={value}
        onChange={onChange}
        maxCount={DETAIL_MAX_SUBJECTS}
        placeholder={t(kind === 'carrier' ? 'pickCarriers' : 'pickSensors', { max: DETAIL_MAX_SUBJECTS })}
        showSearch={{ filterOption: false, onSearch: setSearch }}
        loading={carriers.isFetching || sensors.isFetching}
        options={options}
        allowClear
        maxTagCount="responsive"
      />
    </>
  );
}
