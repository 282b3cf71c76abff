import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Space, Tour } from 'antd';
import { useTranslation } from 'react-i18next';
import { guideRefs, mineRefs } from '@coldwatch/contract';
import { useAction, useCall } from '../../api/hooks';
import { refreshPageInfo, useAuth } from '../../app/auth';
import { session } from '../../app/session';
import { HOME_PATH } from '../../app/tabs';
import { stepsFor, stepText, TARGET_WAIT_MS, TOUR_DELAY_MS, TOUR_DISMISSED, type TourStep } from './tourSteps';

/**
 * The guided tour (spec §2), in the shell so that it can lead from page to page: it starts on
 * Home half a second after it opens, for a user whose guide is on and who has not finished or
 * skipped it in this session; each step opens its page and waits for its element (not found in
 * time: the step is passed over, the page is never broken); it ends on Home. "No more tips"
 * switches the user's guide off, as the profile's switch does.
 */
/** Whether a dialog is showing (antd keeps a closed one's wrapper, hidden). */
const dialogOpen = () => [...document.querySelectorAll<HTMLElement>('.ant-modal-wrap')].some((w) => getComputedStyle(w).display !== 'none' && w.getClientRects().length > 0);

export function GuidedTour() {
  const { t, i18n } = useTranslation('tour');
  const { user, can } = useAuth();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [steps, setSteps] = useState<TourStep[] | null>(null);
  const [index, setIndex] = useState(0);
  const [target, setTarget] = useState<HTMLElement | null>(null);
  // The steps' texts as platform staff keep them in the guide (the catalogue's when it has none).
  const book = useCall(guideRefs.book, {}, { enabled: !!steps, staleTime: Infinity });
  const guideOff = useAction(mineRefs.guide, { success: false, onDone: () => void refreshPageInfo(qc).catch(() => undefined) });

  const guideOn = !!user?.guideOn;
  useEffect(() => {
    if (steps || !guideOn || pathname !== HOME_PATH || session.get<boolean>(TOUR_DISMISSED)) return;
    // Not over a dialog (the set-up wizard's offer to a new customer): it waits until none is open.
    const timer = setInterval(() => {
      if (dialogOpen()) return;
      clearInterval(timer);
      const mine = stepsFor((code) => can(code));
      if (mine.length) {
        setIndex(0);
        setSteps(mine);
      }
    }, TOUR_DELAY_MS);
    return () => clearInterval(timer);
  }, [steps, guideOn, pathname, can]);

  const finish = () => {
    session.set(TOUR_DISMISSED, true);
    setSteps(null);
    setTarget(null);
    navigate(HOME_PATH);
  };
  const goTo = (next: number) => {
    setTarget(null);
    if (!steps || next >= steps.length) finish();
    else setIndex(next);
  };

  const step = steps?.[index];
  useEffect(() => {
    if (!step) return;
    if (pathname !== step.path) {
      navigate(step.path);
      return;
    }
    const started = Date.now();
    const timer = setInterval(() => {
      const el = document.querySelector<HTMLElement>(step.target);
      if (el && el.getBoundingClientRect().width > 0) {
        clearInterval(timer);
        setTarget(el);
      } else if (Date.now() - started > TARGET_WAIT_MS) {
        clearInterval(timer);
        goTo(index + 1);
      }
    }, 100);
    return () => clearInterval(timer);
    // goTo reads the same steps and index the effect is keyed on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [step, pathname]);

  if (!step || !target || !steps) return null;
  const last = index === steps.length - 1;
  const texts = (key: string) => {
    const fromGuide = stepText(book.data, key, i18n.language);
    return fromGuide ? { title: fromGuide.title, description: fromGuide.text } : { title: t(`step.${key}.title`), description: t(`step.${key}.text`) };
  };
  return (
    <Tour
      open
      current={0}
      onClose={finish}
      scrollIntoViewOptions={{ block: 'center' }}
      steps={[{ ...texts(step.key), target: () => target }]}
      actionsRender={() => (
        <Space size={8} data-testid="tour-actions">
          {/* One step at a time (the next may be on another page), so antd's own indicators would say 1 of 1. */}
          <span className="cw-tour-count" style={{ color: 'rgba(0,0,0,0.45)', fontSize: 12 }}>
            {t('count', { current: index + 1, total: steps.length })}
          </span>
          <Button size="small" type="text" onClick={finish}>
            {t('skip')}
          </Button>
          <Button
            size="small"
            onClick={() => {
              void guideOff.run({ query: { on: '0' } });
              finish();
            }}
          >
            {t('noMore')}
          </Button>
          <Button size="small" type="primary" onClick={() => goTo(index + 1)}>
            {last ? t('finish') : t('next')}
          </Button>
        </Space>
      )}
    />
  );
}
