import type { CSSProperties, ReactNode } from 'react';
import { Card } from 'antd';

/** The white panel a page sits in inside the shell (optional; pages may lay out freely). */
export function PageCard({ title, extra, children, style }: { title?: ReactNode; extra?: ReactNode; children: ReactNode; style?: CSSProperties }) {
  return (
    <Card title={title} extra={extra} variant="borderless" style={{ minHeight: '100%', ...style }}>
      {children}
    </Card>
  );
}
