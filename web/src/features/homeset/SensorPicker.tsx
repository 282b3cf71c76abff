/** The sensors of the "specified sensor records" widget: searched by number among the user's sensors (the sensor list call), at most MAX_HOME_SENSORS. */
import { useState } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { MAX_HOME_SENSORS, sensorRefs } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';

export function SensorPicker({ value, known, onChange }: { value: string[]; known: Map<string, string | null>; onChange: (v: string[]) => void }) {
  const { t } = useTranslation('homeset');
  const [search, setSearch] = useState('');
  const q = useCall(sensorRefs.page, { query: { iDisplayStart: 0, iDisplayLength: 20, ...(search ? { devNo: search } : {}) } });
  const label = (devNo: string, carrier: string | null | undefined) => (carrier ? `${devNo} · ${carrier}` : devNo);
  const options = new Map<string, string>(value.map((n) => [n, label(n, known.get(n))]));
  for (const s of q.data?.rows ?? []) if (!options.has(s.devNo)) options.set(s.devNo, label(s.devNo, s.carrierName));
  return (
    <Select
      mode="multiple"
      style={{ width: '100%', maxWidth: 560 }}
      placeholder={t('sensors.placeholder')}
      value={value}
      maxCount={MAX_HOME_SENSORS}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      loading={q.isFetching}
      onChange={onChange}
      options={[...options].map(([v, l]) => ({ value: v, label: l }))}
      data-testid="home-sensors"
    />
  );
}
