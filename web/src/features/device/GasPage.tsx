/** /device/gas: the gas detectors (spec §2, §3 gas codes); the sensor page for the gas kind. */
import SensorPage from './SensorPage';

export default function GasPage() {
  return <SensorPage kind="gas" />;
}
