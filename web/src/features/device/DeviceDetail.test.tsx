// @vitest-environment jsdom
/**
 * The device detail pages' frame: no id, a device that is not there, and one that is (its card
 * naming it, its facts and the cards below); the links to its carrier (or the page's word for
 * none) and to its gateway open their detail pages.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { baseApi } from '@coldwatch/contract';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import BaseDetailPage from '../base/BaseDetailPage';
import { CarrierLink, DeviceCard, DeviceDetail, GatewayLink, useDetailId } from './DeviceDetail';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const DEVICE = { devNo: 'B0000007', name: 'Fridge base', carrierId: 3 as number | null, carrierName: 'Fridge 1' as string | null, gatewayId: 2 };

function Where() {
  const l = useLocation();
  return <div>{`at ${l.pathname}${l.search}`}</div>;
}

function Harness({ device, error = false }: { device?: typeof DEVICE; error?: boolean }) {
  const id = useDetailId();
  return (
    <DeviceDetail id={id} query={{ data: device, isError: error }} noId="Choose a device" notFound="Not found">
      {(d) => (
        <>
          <DeviceCard
            kind="Smart base"
            number={d.devNo}
            name={d.name}
            items={[
              { key: 'carrier', label: 'Carrier', children: <CarrierLink id={d.carrierId} name={d.carrierName} unbound="Not bound" /> },
              { key: 'gateway', label: 'Gateway', children: <GatewayLink id={d.gatewayId}>GW-2</GatewayLink> },
            ]}
          />
          <div>Below the card</div>
        </>
      )}
    </DeviceDetail>
  );
}

const at = (node: ReactNode) => (
  <Routes>
    <Route path="/BaseDetail" element={node} />
    <Route path="*" element={<Where />} />
  </Routes>
);

describe('DeviceDetail', () => {
  it('without an id: says so and asks for nothing', () => {
    const calls = serverAnswers({});
    renderSignedIn(at(<BaseDetailPage />), { path: '/BaseDetail' });
    expect(screen.getByText('No smart base chosen')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('a device that is not there (or not the caller\'s): says so', async () => {
    const calls = serverAnswers({});
    renderSignedIn(at(<BaseDetailPage />), { path: '/BaseDetail?id=7' });
    expect(await screen.findByText('The smart base does not exist or is not yours to see')).toBeTruthy();
    expect(calls[0]).toMatchObject({ path: baseApi.detail.path, query: { id: '7' } });
  });

  it('a device: its card (kind, number, name, facts) and the cards below', () => {
    serverAnswers({});
    renderSignedIn(at(<Harness device={DEVICE} />), { path: '/BaseDetail?id=7' });
    expect(screen.getByText('Smart base')).toBeTruthy();
    expect(screen.getByText('B0000007').closest('code')).toBeTruthy();
    expect(screen.getByText('Fridge base')).toBeTruthy();
    expect(screen.getByText('Below the card')).toBeTruthy();
  });

  it('the carrier link opens the carrier; without one, the page\'s word for none', () => {
    serverAnswers({});
    renderSignedIn(at(<Harness device={DEVICE} />), { path: '/BaseDetail?id=7' });
    fireEvent.click(screen.getByText('Fridge 1'));
    expect(screen.getByText('at /carrierDetailPage?id=3')).toBeTruthy();
    cleanup();
    renderSignedIn(at(<Harness device={{ ...DEVICE, carrierId: null, carrierName: null }} />), { path: '/BaseDetail?id=7' });
    expect(screen.getByText('Not bound')).toBeTruthy();
  });

  it('the gateway link opens the gateway', () => {
    serverAnswers({});
    renderSignedIn(at(<Harness device={DEVICE} />), { path: '/BaseDetail?id=7' });
    fireEvent.click(screen.getByText('GW-2'));
    expect(screen.getByText('at /GateWayDetail?id=2')).toBeTruthy();
  });

  it('while loading: neither the card nor an error', () => {
    serverAnswers({});
    renderSignedIn(at(<Harness />), { path: '/BaseDetail?id=7' });
    expect(screen.queryByText('Smart base')).toBeNull();
    expect(screen.queryByText('Not found')).toBeNull();
    expect(document.querySelector('.ant-spin')).toBeTruthy();
  });
});
