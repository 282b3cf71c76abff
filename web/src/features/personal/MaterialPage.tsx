import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Avatar, Button, Card, Col, Descriptions, Form, Input, Radio, Row, Switch, Tabs, Typography, Upload } from 'antd';
import { KeyOutlined, LoadingOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../../api/client';
import { refreshPageInfo, useAuth, type UserRsp } from '../../app/auth';
import { errorMessage } from '../../app/errors';
import { avatarUrl, checkAvatar, uploadAvatar } from './avatar';
import { SignaturePane } from './SignaturePane';
import './personal.css';

interface MineInfo {
  user: UserRsp & { gender?: number | null; avatar?: string | null };
  scope?: { customer_id?: number; type?: number };
  guide_on?: boolean;
}

interface ProfileForm {
  name: string;
  gender: number;
  mobile: string;
  email: string;
}

interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** Spec §5 field formats (the server checks the same rules). */
const PHONE = /^(\d{11}|\d{7,8}|\d{3,4}-\d{7,8})$/;
const EMAIL = /^[A-Za-z0-9\u4e00-\u9fa5._%+-]+@[A-Za-z0-9\u4e00-\u9fa5-]+(\.[A-Za-z0-9\u4e00-\u9fa5-]+)+$/;
const PASSWORD = /^[A-Za-z0-9]{6,20}$/;

const MINE_INFO_KEY = ['mineInfo'] as const;

/** Server field errors (`result.errors`) onto the form's fields. */
function fieldErrors(e: unknown): { name: string; errors: string[] }[] {
  if (!(e instanceof ApiError) || !e.details) return [];
  return Object.entries(e.details).map(([name, msg]) => ({ name, errors: [msg] }));
}

/** /personal/material and /material: edit profile, change password, avatar, guide on/off (spec §2, issue 3). */
export default function MaterialPage() {
  const { t } = useTranslation('personal');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const { user: me } = useAuth();
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab = tabParam === 'password' || tabParam === 'signature' ? tabParam : 'profile';
  const info = useQuery({ queryKey: MINE_INFO_KEY, queryFn: () => api.get<MineInfo>('/service/mine/info') });
  const user = info.data?.user;

  const [profile] = Form.useForm<ProfileForm>();
  const [password] = Form.useForm<PasswordForm>();
  const [saving, setSaving] = useState(false);
  const [pwSaving, setPwSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [avatarVersion, setAvatarVersion] = useState<string | number | undefined>();
  const [guideBusy, setGuideBusy] = useState(false);
  const [profileError, setProfileError] = useState<string>();
  const [pwError, setPwError] = useState<string>();

  useEffect(() => {
    if (user) profile.setFieldsValue({ name: user.name ?? '', gender: user.gender ?? 1, mobile: user.mobile ?? '', email: user.email ?? '' });
  }, [user, profile]);

  const guideOn = info.data?.guide_on ?? user?.guideOn ?? false;
  const version = avatarVersion ?? user?.avatar ?? me?.avatar ?? undefined;

  const saveProfile = async (v: ProfileForm) => {
    setSaving(true);
    setProfileError(undefined);
    try {
      await api.put('/service/mine/personal', { name: v.name.trim(), gender: v.gender, mobile: v.mobile.trim(), email: (v.email ?? '').trim() });
      void message.success(t('profileSaved'));
      await qc.invalidateQueries({ queryKey: MINE_INFO_KEY });
      await refreshPageInfo(qc).catch(() => undefined);
    } catch (e) {
      const fe = fieldErrors(e);
      if (fe.length) profile.setFields(fe as never);
      setProfileError(errorMessage(e, t));
    } finally {
      setSaving(false);
    }
  };

  const savePassword = async (v: PasswordForm) => {
    setPwSaving(true);
    setPwError(undefined);
    try {
      await api.put('/service/mine/password', v);
      void message.success(t('passwordSaved'));
      password.resetFields();
    } catch (e) {
      const fe = fieldErrors(e);
      if (fe.length) password.setFields(fe as never);
      setPwError(errorMessage(e, t));
    } finally {
      setPwSaving(false);
    }
  };

  const setGuide = async (on: boolean) => {
    setGuideBusy(true);
    try {
      await api.put('/service/mine/guide', undefined, { on: on ? 1 : 0 });
      qc.setQueryData<MineInfo>(MINE_INFO_KEY, (d) => (d ? { ...d, guide_on: on, user: { ...d.user, guideOn: on } } : d));
      void message.success(t(on ? 'guideOnSaved' : 'guideOffSaved'));
      await refreshPageInfo(qc).catch(() => undefined);
    } catch (e) {
      void message.error(errorMessage(e, t));
    } finally {
      setGuideBusy(false);
    }
  };

  const beforeUpload = (file: File) => {
    const problem = checkAvatar(file);
    if (problem) {
      void message.error(t(problem === 'type' ? 'avatarType' : 'avatarSize'));
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const profilePane = (
    <Row gutter={[24, 24]}>
      <Col xs={24} md={8} lg={6}>
        <Card variant="outlined" className="cw-me-card">
          <div className="cw-me-avatar">
            <Avatar size={96} src={version ? avatarUrl(version) : undefined} icon={<UserOutlined />} style={{ background: '#1d4ed8' }} />
            <Typography.Title level={5} style={{ margin: '12px 0 0' }}>
              {user?.name || user?.account}
            </Typography.Title>
            <Typography.Text type="secondary">{user?.customerName}</Typography.Text>
            <Upload
              accept=".jpg,.jpeg,.png,image/jpeg,image/png"
              showUploadList={false}
              beforeUpload={beforeUpload}
              customRequest={async ({ file, onSuccess, onError }) => {
                setUploading(true);
                try {
                  const r = await uploadAvatar(file as File);
                  setAvatarVersion((r as { avatar?: string } | null)?.avatar ?? Date.now());
                  void message.success(t('avatarSaved'));
                  await refreshPageInfo(qc).catch(() => undefined);
                  onSuccess?.(r);
                } catch (e) {
                  void message.error(errorMessage(e, t));
                  onError?.(e as Error);
                } finally {
                  setUploading(false);
                }
              }}
            >
              <Button icon={uploading ? <LoadingOutlined /> : <UploadOutlined />} disabled={uploading} style={{ marginTop: 12 }}>
                {t('avatarUpload')}
              </Button>
            </Upload>
            <div className="cw-me-hint">{t('avatarHint')}</div>
          </div>
          <Descriptions column={1} size="small" className="cw-me-desc">
            <Descriptions.Item label={t('account')}>{user?.account}</Descriptions.Item>
            <Descriptions.Item label={t('customer')}>{user?.customerName}</Descriptions.Item>
          </Descriptions>
        </Card>
      </Col>
      <Col xs={24} md={16} lg={12}>
        <Typography.Title level={5}>{t('profile')}</Typography.Title>
        {profileError && <Alert type="error" showIcon title={profileError} style={{ marginBottom: 16 }} />}
        <Form<ProfileForm> form={profile} layout="vertical" onFinish={saveProfile} disabled={info.isLoading} style={{ maxWidth: 480 }}>
          <Form.Item name="name" label={t('name')} rules={[{ required: true, whitespace: true, message: t('nameRequired') }, { max: 50, message: t('nameMax') }]}>
            <Input maxLength={50} />
          </Form.Item>
          <Form.Item name="gender" label={t('gender')}>
            <Radio.Group
              options={[
                { value: 1, label: t('male') },
                { value: 0, label: t('female') },
              ]}
            />
          </Form.Item>
          <Form.Item
            name="mobile"
            label={t('mobile')}
            rules={[
              { required: true, whitespace: true, message: t('mobileRequired') },
              { pattern: PHONE, message: t('mobileFormat') },
            ]}
          >
            <Input maxLength={20} />
          </Form.Item>
          <Form.Item name="email" label={t('email')} rules={[{ pattern: EMAIL, message: t('emailFormat') }, { max: 100, message: t('emailMax') }]}>
            <Input maxLength={100} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={saving}>
            {t('save')}
          </Button>
        </Form>
        <div className="cw-me-guide">
          <div>
            <Typography.Text strong>{t('guide')}</Typography.Text>
            <div className="cw-me-hint">{t('guideHint')}</div>
          </div>
          <Switch checked={guideOn} loading={guideBusy} onChange={setGuide} aria-label={t('guide')} />
        </div>
      </Col>
    </Row>
  );

  const passwordPane = (
    <div style={{ maxWidth: 420 }}>
      {pwError && <Alert type="error" showIcon title={pwError} style={{ marginBottom: 16 }} />}
      <Form<PasswordForm> form={password} layout="vertical" onFinish={savePassword} autoComplete="off">
        <Form.Item name="oldPassword" label={t('oldPassword')} rules={[{ required: true, message: t('oldPasswordRequired') }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label={t('newPassword')}
          extra={t('passwordRule')}
          rules={[
            { required: true, message: t('newPasswordRequired') },
            { pattern: PASSWORD, message: t('passwordRule') },
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('confirmPassword')}
          dependencies={['newPassword']}
          rules={[
            { required: true, message: t('confirmRequired') },
            ({ getFieldValue }) => ({
              validator: (_, v) => (!v || v === getFieldValue('newPassword') ? Promise.resolve() : Promise.reject(new Error(t('passwordsDiffer')))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={pwSaving} icon={<KeyOutlined />}>
          {t('changePassword')}
        </Button>
      </Form>
    </div>
  );

  return (
    <Card variant="borderless" style={{ minHeight: '100%' }}>
      {info.isError && <Alert type="error" showIcon title={errorMessage(info.error, t)} style={{ marginBottom: 16 }} />}
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams(k === 'profile' ? {} : { tab: k }, { replace: true })}
        items={[
          { key: 'profile', label: t('tabProfile'), children: profilePane },
          { key: 'password', label: t('tabPassword'), children: passwordPane },
          { key: 'signature', label: t('tabSignature'), children: <SignaturePane /> },
        ]}
      />
    </Card>
  );
}
