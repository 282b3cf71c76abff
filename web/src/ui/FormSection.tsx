import type { ReactNode } from 'react';
import { Divider, Row, Typography } from 'antd';

/**
 * A section of a wide form dialog (customers, users, roles): its title as a divider, a hint
 * under it, and its fields in a row of columns (`<Col span={12}>` each, or 24 for a whole line).
 */
export function FormSection({ title, hint, first, children }: { title?: ReactNode; hint?: ReactNode; /** The dialog's first section: closer to the top. */ first?: boolean; children: ReactNode }) {
  return (
    <>
      {title && (
        <Divider titlePlacement="start" plain style={first ? { marginTop: 4 } : undefined}>
          {title}
        </Divider>
      )}
      {hint && (
        <Typography.Paragraph type="secondary" style={{ marginTop: -8, fontSize: 12 }}>
          {hint}
        </Typography.Paragraph>
      )}
      <Row gutter={16}>{children}</Row>
    </>
  );
}
