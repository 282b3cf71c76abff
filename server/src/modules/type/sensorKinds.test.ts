import { describe, expect, it } from 'vitest';
import {
  CLIMATE_SENSOR_TYPES,
  isClimateSensor,
  NOT_CLIMATE_SENSOR_TYPES,
  SENSOR_TYPES,
  sensorKindOf,
  sensorMeasuresHumidity,
  sensorReadings,
  sensorTypeKey,
  sensorTypeOffered,
} from '@coldwatch/contract';

/** The sensor-kind rules of the contract (deviceTypes.ts), which the server and the web app both take from there. */

describe('sensor kinds', () => {
  it('a radio sensor measures climate; a gas detector and a door magnet are kinds of their own and do not', () => {
    expect(sensorKindOf('zigbee_th')).toBe('sensor');
    expect(isClimateSensor('lora_t')).toBe(true);
    expect(sensorKindOf('gas')).toBe('gas');
    expect(sensorKindOf('magnet')).toBe('magnet');
    expect(NOT_CLIMATE_SENSOR_TYPES.some(isClimateSensor)).toBe(false);
    expect([...CLIMATE_SENSOR_TYPES, ...NOT_CLIMATE_SENSOR_TYPES].sort()).toEqual([...SENSOR_TYPES].sort());
  });

  it('a hygrothermograph measures humidity, a thermometer does not', () => {
    expect(sensorMeasuresHumidity('zigbee_th')).toBe(true);
    expect(sensorMeasuresHumidity('4g_th_gps')).toBe(true);
    expect(sensorMeasuresHumidity('4g_t')).toBe(false);
    expect(sensorReadings('4g_th_gps')).toEqual(['temp', 'hum', 'volt', 'rssi']);
    expect(sensorReadings('zigbee_t')).toEqual(['temp', 'volt', 'rssi', 'lqi']);
    expect(sensorReadings('gas')).toEqual(['gas', 'volt', 'rssi']);
    expect(sensorReadings('magnet')).toEqual(['door', 'volt', 'rssi']);
  });

  it('a sensor row is offered while its catalogue entry is: a gas detector by its gas, or any gas when none is named', () => {
    const off = new Set(['sensor:zigbee_t', 'gas:0x04', 'magnet:magnet1']);
    expect(sensorTypeKey('gas', null)).toBe('gas:*');
    expect(sensorTypeOffered(off, 'zigbee_th')).toBe(true);
    expect(sensorTypeOffered(off, 'zigbee_t')).toBe(false);
    expect(sensorTypeOffered(off, 'gas', '0x01')).toBe(true);
    expect(sensorTypeOffered(off, 'gas', '0x04')).toBe(false);
    expect(sensorTypeOffered(off, 'gas')).toBe(true);
    expect(sensorTypeOffered(new Set(['gas:0x00', 'gas:0x01', 'gas:0x04', 'gas:0x0A', 'gas:0x32', 'gas:co2']), 'gas')).toBe(false);
    expect(sensorTypeOffered(off, 'magnet')).toBe(false);
    expect(sensorTypeOffered(new Set(), 'magnet')).toBe(true);
  });
});
