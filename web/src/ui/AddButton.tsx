import type { ReactNode } from 'react';
import { Button } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useAuth } from '../app/auth';
import { held } from './RowActions';

export interface AddButtonProps {
  /** Function codes the caller must all hold; without them there is no button. */
  perm: string | readonly string[];
  onClick: () => void;
  /** E.g. nothing left to add (every unit has its range). */
  disabled?: boolean;
  children: ReactNode;
}

/** A list screen's add button (its toolbar's primary action), only for callers who may add. */
export function AddButton({ perm, onClick, disabled, children }: AddButtonProps) {
  const { can } = useAuth();
  if (!held(can, perm)) return null;
  return (
    <Button type="primary" icon={<PlusOutlined />} onClick={onClick} disabled={disabled}>
      {children}
    </Button>
  );
}
