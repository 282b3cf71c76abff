import { useId } from 'react';

/** The Coldwatch mark: a snowflake over a thermometer bulb, in the product's ice-blue. */
export function LogoMark({ size = 32 }: { size?: number }) {
  // Its own gradient id: with one shared id, a mark inside a hidden panel (the login hero on a
  // phone) takes the gradient with it, and the visible mark is drawn without its fill.
  const gradient = useId();
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" style={{ flex: 'none', display: 'block' }}>
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#38bdf8" />
          <stop offset="1" stopColor="#1d4ed8" />
        </linearGradient>
      </defs>
      <rect x="0" y="0" width="32" height="32" rx="8" fill={`url(#${gradient})`} />
      <g stroke="#fff" strokeWidth="2" strokeLinecap="round" fill="none">
        <path d="M16 6v20M7.3 11l17.4 10M7.3 21l17.4-10" />
        <path d="M13 8l3 2.5L19 8M13 24l3-2.5 3 2.5" />
      </g>
      <circle cx="16" cy="16" r="3.2" fill="#fff" />
    </svg>
  );
}
