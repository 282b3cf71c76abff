import { Component, type ReactNode } from 'react';
import { Button, Result } from 'antd';
import i18n from './i18n';

/** Catches a page that fails to load (chunk timeout, network) or to render; offers a reload. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error?: Error }> {
  state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    if (!this.state.error) return this.props.children;
    return (
      <Result
        status="error"
        title={i18n.t('common:error.pageFailed')}
        subTitle={i18n.t('common:error.pageFailedHint')}
        extra={
          <Button type="primary" onClick={() => window.location.reload()}>
            {i18n.t('common:action.reload')}
          </Button>
        }
      />
    );
  }
}
