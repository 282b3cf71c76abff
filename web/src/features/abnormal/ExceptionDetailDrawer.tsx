import { App, Button, Drawer, Result, Space, Spin, Typography } from 'antd';
import { CommentOutlined, EditOutlined, LinkOutlined, LockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EXCEPTION_STATUS, exceptionApi, type ExceptionDetail, type ExceptionRow } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { errorMessage } from '../../app/errors';
import { ExceptionFacts } from './ExceptionFacts';
import { HandlingSteps } from './HandlingSteps';

interface Props {
  id: number | null;
  onClose: () => void;
  /** The actions open the list page's dialogs, with the detail's row. */
  onHandle: (row: ExceptionRow) => void;
  onCorrect: (row: ExceptionRow) => void;
  onComment: (row: ExceptionRow) => void;
  onCloseException: (row: ExceptionRow) => void;
}

/**
 * One exception with its signed steps (GET /service/exception/detail): the facts, the steps as
 * signed, and the signed actions its state allows (handle, correct, comment, close), plus a link
 * that opens it at /exDetail without signing in.
 */
export function ExceptionDetailDrawer({ id, onClose, onHandle, onCorrect, onComment, onCloseException }: Props) {
  const { t } = useTranslation('abnormal');
  const { message } = App.useApp();
  const { can } = useAuth();
  const q = useCall(exceptionApi.detail, { query: { id: id ?? 0 } }, { enabled: id !== null });
  const d: ExceptionDetail | undefined = q.data;
  const canEdit = can('editEx');

  const copyLink = async () => {
    if (!d) return;
    try {
      const link = await call(exceptionApi.link, { query: { id: d.id } });
      await navigator.clipboard?.writeText(link.url).catch(() => undefined);
      void message.success({ content: t('detail.linkCopied', { url: link.url }), duration: 6 });
    } catch (e) {
      void message.error(errorMessage(e, t));
    }
  };

  const actions = d && canEdit && (
    <Space wrap>
      {d.status === EXCEPTION_STATUS.pending && (
        <Button type="primary" icon={<EditOutlined />} onClick={() => onHandle(d)}>
          {t('action.handle')}
        </Button>
      )}
      {d.status === EXCEPTION_STATUS.processed && (
        <Button icon={<EditOutlined />} onClick={() => onCorrect(d)}>
          {t('action.correct')}
        </Button>
      )}
      {d.status === EXCEPTION_STATUS.processed && !d.ongoing && (
        <Button danger icon={<LockOutlined />} onClick={() => onCloseException(d)}>
          {t('action.close')}
        </Button>
      )}
      <Button icon={<CommentOutlined />} onClick={() => onComment(d)}>
        {t('action.comment')}
      </Button>
    </Space>
  );

  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size={720}
      title={t('detail.title')}
      extra={
        d && (
          <Button icon={<LinkOutlined />} onClick={() => void copyLink()}>
            {t('action.copyLink')}
          </Button>
        )
      }
      destroyOnHidden
    >
      {q.isLoading ? (
        <Spin style={{ display: 'block', margin: '40px auto' }} />
      ) : q.isError ? (
        <Result status="warning" title={errorMessage(q.error, t)} />
      ) : d ? (
        <div data-testid="exception-detail">
          <ExceptionFacts ex={d} timeZone={d.timeZone} noticeCount={d.notices.length} />
          <div style={{ margin: '16px 0 8px' }}>{actions}</div>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('detail.steps')}
          </Typography.Title>
          <HandlingSteps steps={d.steps} signatures={d.signatures} timeZone={d.timeZone} />
        </div>
      ) : null}
    </Drawer>
  );
}
