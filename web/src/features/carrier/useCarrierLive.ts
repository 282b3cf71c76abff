/** One carrier's page data: GET /service/atomCarrier/:id, kept live by the stream (an exception event loads it again). */
import { useCallback, useEffect, useState } from 'react';
import { carrierApi, type LiveEvent } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { applyEvents, type MonitorCarrier } from '../databoard/monitorState';
import { useLiveStream } from '../databoard/useLiveStream';

export function useCarrierLive(id: number) {
  const atom = useCall(carrierApi.atom, { params: { id } }, { enabled: id > 0 });
  const [live, setLive] = useState<MonitorCarrier[]>([]);

  useEffect(() => {
    if (atom.data) setLive([{ ...atom.data.carrier, openExceptions: atom.data.openExceptions, sensors: atom.data.sensors }]);
  }, [atom.data]);
  const refetch = atom.refetch;
  const onEvents = useCallback(
    (events: LiveEvent[]) => {
      setLive((cur) => applyEvents(cur, events));
      if (events.some((e) => e.type === 'exception')) void refetch();
    },
    [refetch],
  );
  useLiveStream(onEvents);

  return { atom, carrier: live[0] as MonitorCarrier | undefined };
}
