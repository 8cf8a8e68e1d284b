# -*- coding: utf-8 -*-
from .client import Client
