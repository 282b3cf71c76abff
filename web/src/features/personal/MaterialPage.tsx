import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Avatar, Button, Card, Col, Descriptions, Form, Input, Radio, Row, Switch, Tabs, Typography, Upload } from 'antd';
import { KeyOutlined, LoadingOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { mineApi, userEmail, userMobile, userPassword } from '@coldwatch/contract';
import { useAction, useCall, useUpload } from '../../api/hooks';
import { refreshPageInfo, useAuth } from '../../app/auth';
import { fieldErrors, matches } from '../sys/formRules';
import { errorMessage } from '../../app/errors';
import { avatarUrl, checkAvatar } from './avatar';
import { SignaturePane } from './SignaturePane';
import { session } from '../../app/session';
import { TOUR_DISMISSED } from '../tour/tourSteps';
import './personal.css';

interface ProfileForm {
  name: string;
  gender: 0 | 1;
  mobile: string;
  email: string;
}

interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

const PROFILE_FIELDS = ['name', 'gender', 'mobile', 'email'];
const PASSWORD_FIELDS = ['oldPassword', 'newPassword', 'confirmPassword'];

/** /personal/material and /material: edit profile, change password, avatar, guide on/off (spec §2, issue 3). */
export default function MaterialPage() {
  const { t } = useTranslation('personal');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const { user: me } = useAuth();
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab = tabParam === 'password' || tabParam === 'signature' ? tabParam : 'profile';
  const info = useCall(mineApi.info);
  const user = info.data?.user;

  const [profile] = Form.useForm<ProfileForm>();
  const [password] = Form.useForm<PasswordForm>();
  const [avatarVersion, setAvatarVersion] = useState<string | number | undefined>();
  const [profileError, setProfileError] = useState<string>();
  const [pwError, setPwError] = useState<string>();
  const refreshShell = () => void refreshPageInfo(qc).catch(() => undefined);

  const personal = useAction(mineApi.personal, {
    success: t('profileSaved'),
    invalidates: [mineApi.info],
    onDone: refreshShell,
    onFailed: (e) => {
      const fe = fieldErrors(e, PROFILE_FIELDS);
      if (fe.length) profile.setFields(fe as never);
      setProfileError(errorMessage(e, t));
      return true;
    },
  });
  const changePassword = useAction(mineApi.password, {
    success: t('passwordSaved'),
    onDone: () => password.resetFields(),
    onFailed: (e) => {
      const fe = fieldErrors(e, PASSWORD_FIELDS);
      if (fe.length) password.setFields(fe as never);
      setPwError(errorMessage(e, t));
      return true;
    },
  });
  const guide = useAction(mineApi.guide, { success: false, invalidates: [mineApi.info], onDone: refreshShell });
  const avatar = useUpload(mineApi.upload, {
    success: t('avatarSaved'),
    onDone: (r) => {
      setAvatarVersion(r.avatar ?? Date.now());
      refreshShell();
    },
  });

  useEffect(() => {
    if (user) profile.setFieldsValue({ name: user.name ?? '', gender: user.gender === 0 ? 0 : 1, mobile: user.mobile ?? '', email: user.email ?? '' });
  }, [user, profile]);

  const guideOn = info.data?.guide_on ?? user?.guideOn ?? false;
  const version = avatarVersion ?? user?.avatar ?? me?.avatar ?? undefined;

  const saveProfile = (v: ProfileForm) => {
    setProfileError(undefined);
    void personal.run({ body: { name: v.name.trim(), gender: v.gender, mobile: v.mobile.trim(), email: (v.email ?? '').trim() } });
  };

  const savePassword = (v: PasswordForm) => {
    setPwError(undefined);
    void changePassword.run({ body: v });
  };

  const setGuide = (on: boolean) => {
    // Switched on again, the tour shows at the next visit of Home, even in this session.
    if (on) session.remove(TOUR_DISMISSED);
    return guide.run({ query: { on: on ? '1' : '0' } }).then((done) => done !== undefined && void message.success(t(on ? 'guideOnSaved' : 'guideOffSaved')));
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
                const r = await avatar.run({ file: file as File });
                if (r) onSuccess?.(r);
                else onError?.(new Error('upload failed'));
              }}
            >
              <Button icon={avatar.busy ? <LoadingOutlined /> : <UploadOutlined />} disabled={avatar.busy} style={{ marginTop: 12 }}>
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
              matches(userMobile, t('mobileFormat')),
            ]}
          >
            <Input maxLength={20} />
          </Form.Item>
          <Form.Item name="email" label={t('email')} rules={[matches(userEmail, t('emailFormat')), { max: 100, message: t('emailMax') }]}>
            <Input maxLength={100} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={personal.busy}>
            {t('save')}
          </Button>
        </Form>
        <div className="cw-me-guide">
          <div>
            <Typography.Text strong>{t('guide')}</Typography.Text>
            <div className="cw-me-hint">{t('guideHint')}</div>
          </div>
          <Switch checked={guideOn} loading={guide.busy} onChange={(on) => void setGuide(on)} aria-label={t('guide')} />
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
            matches(userPassword, t('passwordRule')),
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
        <Button type="primary" htmlType="submit" loading={changePassword.busy} icon={<KeyOutlined />}>
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
