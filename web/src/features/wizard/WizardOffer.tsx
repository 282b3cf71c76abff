import { useState } from 'react';
import { Modal } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { carrierRefs, gatewayRefs } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { shouldOffer } from './wizardState';

const declinedKey = (userId: number) => `cw.wizard.declined.${userId}`;

/** Spec §1: a freshly registered company (nothing set up yet) is offered the set-up wizard at first login. */
export function WizardOffer() {
  const { t } = useTranslation('wizard');
  const { user, can } = useAuth();
  const navigate = useNavigate();
  const allowed = !!user && can('newGateway', 'newSensor', 'newCarrier');
  const [declined, setDeclined] = useState(() => (user ? localStorage.getItem(declinedKey(user.id)) === '1' : true));
  const carriers = useCall(carrierRefs.page, { query: { iDisplayLength: 1 } }, { enabled: allowed && !declined });
  const gateways = useCall(gatewayRefs.page, { query: { iDisplayLength: 1 } }, { enabled: allowed && !declined });
  const open = allowed && carriers.data !== undefined && gateways.data !== undefined && shouldOffer({ carriers: carriers.data.total, gateways: gateways.data.total }, declined);
  const decline = () => {
    if (user) localStorage.setItem(declinedKey(user.id), '1');
    setDeclined(true);
  };
  return (
    <Modal
      open={open}
      title={t('offer.title')}
      okText={t('offer.start')}
      cancelText={t('offer.later')}
      onOk={() => {
        decline();
        navigate('/wizard');
      }}
      onCancel={decline}
    >
      {t('offer.text')}
    </Modal>
  );
}
