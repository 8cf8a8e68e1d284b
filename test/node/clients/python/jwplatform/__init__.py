# -*- coding: utf-8 -*-
from . import v1
